import { QueryTypes } from 'sequelize'
import { app } from './server.ts'

/**
 * Every table's row count (ours and the job queue's), by `schema.table`: what a refused write must leave exactly as it
 * was. `skip`: tables a refused request still writes by design (a rate window, a key's last use).
 */
export async function everyCount(skip: string[] = []): Promise<Record<string, number>> {
  const sql = <T extends object>(text: string) => app().db.sequelize.query<T>(text, { type: QueryTypes.SELECT }) as Promise<T[]>
  const tables = await sql<{ name: string }>(
    `SELECT quote_ident(schemaname) || '.' || quote_ident(relname) AS name FROM pg_stat_user_tables
      WHERE schemaname = 'public' OR (schemaname = 'graphile_worker' AND relname = '_private_jobs') ORDER BY 1`
  )
  const [row] = await sql<Record<string, string>>(`SELECT ${tables.map((t, i) => `(SELECT count(*) FROM ${t.name}) AS t${i}`).join(', ')}`)
  return Object.fromEntries(tables.map((t, i) => [t.name, Number(row![`t${i}`])]).filter(([name]) => !skip.includes(name as string)))
}
