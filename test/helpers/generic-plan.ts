import { QueryTypes, type Transaction } from 'sequelize'
import { app } from './server.ts'

/**
 * The plan of `text` (its parameters `$1`...) as a generic plan, the way a foreign key's own lookup runs it, inside `t`
 * (whose `SET LOCAL`s it honours). `EXPLAIN (GENERIC_PLAN)` leaves nothing behind on the pooled connection, where a
 * `PREPARE`d name would clash with the next test that prepares the same one there.
 */
export async function genericPlan(text: string, t: Transaction): Promise<string> {
  const rows = await app().db.sequelize.query<{ 'QUERY PLAN': string }>(`EXPLAIN (GENERIC_PLAN) ${text}`, { transaction: t, type: QueryTypes.SELECT })
  return rows.map((r) => r['QUERY PLAN']).join('\n')
}
