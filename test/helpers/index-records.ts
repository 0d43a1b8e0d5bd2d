import { QueryTypes, type Sequelize } from 'sequelize'
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
  const end = await flushedTo(db)
  const rows = await sql<{ name: string; n: number }>(
    `WITH idx AS (
       SELECT c.relname AS name, pg_relation_filenode(c.oid) AS node FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE i.indrelid = ANY(CAST(:tables AS regclass[])))
     SELECT idx.name, count(*)::int AS n
       FROM pg_get_wal_records_info(:start::pg_lsn, :end::pg_lsn) w
       JOIN idx ON w.block_ref ~ ('rel [0-9]+/[0-9]+/' || idx.node || ' ')
      WHERE w.resource_manager = ANY(CAST(:kinds AS text[]))
      GROUP BY idx.name`,
    { start, end, tables: `{${tables.join(',')}}`, kinds: `{${kinds.join(',')}}` }
  )
  return Object.fromEntries(rows.map((r) => [r.name, r.n]))
}

/**
 * The WAL's insert position now, once it is flushed: pg_walinspect reads only flushed WAL, and a commit that did not wait
 * for its flush (`synchronous_commit` off, or a transaction that wrote no WAL before its commit record) leaves it to the
 * WAL writer, which flushes within its delay.
 */
export async function flushedTo(db: Sequelize): Promise<string> {
  const [{ end }] = (await db.query<{ end: string }>('SELECT pg_current_wal_insert_lsn()::text AS end', { type: QueryTypes.SELECT })) as [{ end: string }]
  for (let tries = 0; tries < 250; tries++) {
    const [{ flushed }] = (await db.query<{ flushed: boolean }>('SELECT pg_current_wal_flush_lsn() >= CAST(:end AS pg_lsn) AS flushed', {
      replacements: { end },
      type: QueryTypes.SELECT
    })) as [{ flushed: boolean }]
    if (flushed) return end
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  throw new Error(`the WAL was not flushed to ${end} within 5 s`)
}
