import { QueryTypes } from 'sequelize'
import { app } from './server.ts'

/**
 * WAL records written in each index of `tables` while `fn` ran, by index name (it installs pg_walinspect first):
 * an index that gets no entry for a write is one the write did not cost. `kinds`: the index access methods' WAL
 * resource managers to count.
 */
export async function indexRecords(tables: string[], fn: () => Promise<unknown>, kinds = ['Btree']): Promise<Record<string, number>> {
  const db = app().db.sequelize
  const sql = <T extends object>(text: string, replacements: Record<string, unknown>) =>
    db.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
  await db.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect')
  const [{ start }] = (await sql<{ start: string }>('SELECT pg_current_wal_insert_lsn()::text AS start', {})) as [{ start: string }]
  await fn()
  const rows = await sql<{ name: string; n: number }>(
    `WITH idx AS (
       SELECT c.relname AS name, pg_relation_filenode(c.oid) AS node FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = ANY(CAST(:tables AS regclass[])))
     SELECT idx.name, count(*)::int AS n
       FROM pg_get_wal_records_info(:start::pg_lsn, pg_current_wal_insert_lsn()) w
       JOIN idx ON w.block_ref ~ ('rel [0-9]+/[0-9]+/' || idx.node || ' ')
      WHERE w.resource_manager = ANY(CAST(:kinds AS text[]))
      GROUP BY idx.name`,
    { start, tables: `{${tables.join(',')}}`, kinds: `{${kinds.join(',')}}` }
  )
  return Object.fromEntries(rows.map((r) => [r.name, r.n]))
}
