import type { Client as PgClient } from 'pg'
import { QueryTypes, type Sequelize } from 'sequelize'
import type { CopyCsv } from '../../lib/csv-copy.ts'

// The CSV export's statements (ADR 0023, ADR 0050); exports.ts streams the COPY on the transaction's connection.

/**
 * What "pending" means for the export: paid, not yet delivered, not exported before, and not being
 * delivered automatically: never sent (manual mode) or failed at the vendor. Over
 * `orders o`: an exported order keeps its row as it was (ADR 0021), so the export is the row in
 * order_exports (`NOT_EXPORTED`).
 */
const EXPORTABLE_ROW = `o.payment_status = 'SUCCESS' AND NOT o.delivered AND o.delivery_status IN ('NOT_STARTED','FAILED')`
const NOT_EXPORTED = 'AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)'
const EXPORTABLE = `${EXPORTABLE_ROW}\n  ${NOT_EXPORTED}`

/** How the export finds them: the FROM (its columns read `o` and `a`) and the key that orders the rows. */
export interface ExportWalk {
  from: string
  key: string
  /**
   * Set when this walk leaves out the probe of order_exports because no prune was pending: the same
   * walk with the probe, for the one retry after a clash on order_exports' key (ADR 0054).
   */
  probed?: ExportWalk
}

/**
 * A short export (ADR 0050): the orders named in order_export_candidates (kept by triggers on orders),
 * in their key's order, each one's orders row read by key and `EXPORTABLE` applied to it, then its
 * agent. The lateral subqueries (OFFSET 0 keeps them whole) make each step a lookup by key, so the
 * first row goes out at once: as plain joins the planner hashed the whole orders table and sorted
 * the result before the first row (2.5 s at a million orders). Each lookup hands on only the columns
 * the file reads (`select`), not the whole row (ADR 0052). Without `probe` the order_exports probe is
 * left out (~3.4 us of PostgreSQL a row, ADR 0054): only when no prune is pending, so no candidate
 * names an exported order.
 */
const byKey = (select: string, probe: boolean): ExportWalk => ({
  from: `FROM order_export_candidates c
  CROSS JOIN LATERAL (SELECT ${columnsRead(select, 'o', ['id', 'agent_id'])} FROM orders o WHERE o.id = c.order_id AND ${probe ? EXPORTABLE : EXPORTABLE_ROW} OFFSET 0) o
  LEFT JOIN LATERAL (SELECT ${columnsRead(select, 'a', ['id'])} FROM agents a WHERE a.id = o.agent_id OFFSET 0) a ON true`,
  key: 'c.order_id',
  ...(probe ? {} : { probed: byKey(select, true) })
})

/** The columns of `alias` that the SQL `select` reads (`alias.column`), with `always` among them. */
function columnsRead(select: string, alias: string, always: string[]): string {
  const read = [...select.matchAll(new RegExp(`\\b${alias}\\.([a-z_][a-z0-9_]*)`, 'g'))].map((m) => m[1]!)
  return [...new Set([...always, ...read])].map((c) => `${alias}.${c}`).join(', ')
}

/**
 * A long export: one pass over orders (the planner's hash joins, in parallel) costs PostgreSQL less
 * per row than a lookup per order once the export is a large share of the table (at a million orders:
 * 13.5 against 24 us per row at 400,000, and the wait before the first row is spread over many rows).
 */
const ONE_PASS: ExportWalk = { from: `FROM orders o LEFT JOIN agents a ON a.id = o.agent_id WHERE ${EXPORTABLE}`, key: 'o.id' }

/** Lookups while the candidates are under 1/LOOKUP_SHARE of the orders (as the planner last counted them). */
const LOOKUP_SHARE = 8

/**
 * What one picked row of a short export takes in PostgreSQL's memory, with room to spare (190 bytes
 * measured at a million orders: the CSV's columns as text), and the most those rows may take. The
 * picked rows are held until the marking at the end of the statement reads them again: past
 * `work_mem` (4 MB by default, ~20,000 rows) they went to a temporary file, written and read back.
 */
const PICKED_ROW_BYTES = 400
const PICKED_MEMORY_MAX = 64 * 1024 * 1024

/**
 * A timestamptz column as the file shows it, UTC 'YYYY-MM-DD HH:MM:SS': half of `to_char`'s cost per
 * row (0.6 against 1.2 us, ADR 0054), but a timestamp's text follows the session's DateStyle, so it is
 * only for the export's statement, whose transaction `walkFor` sets to DateStyle ISO.
 */
export const utcSecondsSql = (column: string): string => `date_trunc('second', ${column} AT TIME ZONE 'UTC')::text`

/**
 * Which walk an export takes: lookups by key while the candidates are a small share of the orders.
 * For that short walk it raises the transaction's `work_mem` so its picked rows stay in memory
 * (ADR 0052); the long walk keeps the server's setting (its plan is sized by it, its rows spill).
 * `select` is the file's select list (`CopyCsv.select`). Either way the transaction's DateStyle
 * becomes ISO (output only: the order of day and month the session reads stays) for `utcSecondsSql`.
 *
 * In the same statement (no extra round trip) it records this export's prune as pending (its stamp
 * in order_export_prunes, deleted by the prune job) and reads whether an earlier one still is: the
 * statement's snapshot does not see its own insert, and EXPORT_LOCK keeps other exports out. It also
 * tells the trigger on order_exports that this transaction's marking is the export's (migration 370).
 */
export async function walkFor(client: PgClient, select: string, stampSql: string): Promise<ExportWalk> {
  const { rows } = await client.query<{ candidates: number; orders: number; pruning: boolean }>(
    `WITH pending AS (INSERT INTO order_export_prunes (stamp) VALUES (${stampSql}::timestamptz))
     SELECT set_config('datestyle', 'ISO', true), set_config('datahub.exporting', 'on', true),
            (SELECT count(*) FROM order_export_candidates)::int AS candidates,
            (SELECT reltuples FROM pg_class WHERE oid = 'orders'::regclass)::float8 AS orders,
            EXISTS (SELECT 1 FROM order_export_prunes) AS pruning`
  )
  const { candidates, orders, pruning } = rows[0]!
  if (candidates * LOOKUP_SHARE >= orders) return ONE_PASS
  const kB = Math.ceil(Math.min(candidates * PICKED_ROW_BYTES, PICKED_MEMORY_MAX) / 1024)
  // Only ever raised: a server configured above this keeps its own.
  await client.query(`SELECT set_config('work_mem', $1, true) WHERE pg_size_bytes(current_setting('work_mem')) < $2::bigint * 1024`, [`${kB}kB`, kB])
  return byKey(select, pruning)
}

/** Whether `err` is a second row for an order in order_exports: a candidate already exported. */
export const isExportKeyClash = (err: unknown): boolean => {
  const e = err as { code?: string; constraint?: string }
  return e.code === '23505' && e.constraint === 'order_exports_pkey'
}

/**
 * The probe-less statement runs in a savepoint: a clash on order_exports' key (a candidate already
 * exported that no pending prune covers: a writer that went around the trigger on order_exports)
 * rolls back to it, and the statement runs again with the probe.
 */
export const savepointUnprobed = (client: PgClient) => client.query('SAVEPOINT export_unprobed')
export async function backToSavepointUnprobed(client: PgClient): Promise<void> {
  await client.query('ROLLBACK TO SAVEPOINT export_unprobed')
  await markCandidatesUnpruned(client)
}

/**
 * After a clash: '-infinity' keeps the probe in every export until a prune job has taken every
 * exported order out of the candidates. `db` is the export's connection, or the pool when the clash
 * came too late to retry (bytes already sent) and the export's transaction rolls back.
 */
export async function markCandidatesUnpruned(db: { query(sql: string): Promise<unknown> }): Promise<void> {
  await db.query(`INSERT INTO order_export_prunes (stamp) VALUES ('-infinity') ON CONFLICT DO NOTHING`)
}

/**
 * Picks the exportable orders once (by `walk`), records them in order_exports at `stampSql` (an SQL
 * literal: COPY takes no bind parameters) and writes them out as CSV. The outer ORDER BY is the CTE's
 * own order (PostgreSQL 17+ sees it): no second sort.
 */
export const exportCopySql = (csv: CopyCsv, walk: ExportWalk, stampSql: string): string => `COPY (
      WITH picked AS MATERIALIZED (
        SELECT ${walk.key} AS order_id, ${csv.select}
        ${walk.from}
         ORDER BY ${walk.key}
      ), marked AS (
        INSERT INTO order_exports (order_id, exported_at) SELECT order_id, ${stampSql}::timestamptz FROM picked
      )
      SELECT ${csv.names} FROM picked ORDER BY order_id
    ) TO STDOUT WITH (${csv.options})`

/**
 * Takes the orders of the export stamped `stamp` out of order_export_candidates (idempotent), and
 * with them its pending mark (order_export_prunes), in one transaction. Done after the export's commit
 * rather than in its statement: deleting 400,000 candidates there cost the export ~3 us of PostgreSQL
 * per row before its COMMIT, and a candidate already exported is skipped by `EXPORTABLE` meanwhile
 * (exports read the mark and keep the probe). The stamp's rows are found by order_exports_at_idx.
 * When another writer of order_exports left '-infinity', every exported candidate goes: the mark is
 * deleted first, so a writer still holding it (its trigger's upsert) is waited for and its rows seen.
 */
export async function deleteExportedCandidates(sequelize: Sequelize, stamp: string): Promise<void> {
  await sequelize.transaction(async (transaction) => {
    const gone = await sequelize.query<{ everything: boolean }>(
      `DELETE FROM order_export_prunes WHERE stamp IN (CAST(:stamp AS timestamptz), '-infinity') RETURNING (stamp = '-infinity') AS everything`,
      { replacements: { stamp }, type: QueryTypes.SELECT, transaction }
    )
    const everything = gone.some((r) => r.everything)
    await sequelize.query(
      `DELETE FROM order_export_candidates c USING order_exports x WHERE ${everything ? '' : 'x.exported_at = :stamp AND '}x.order_id = c.order_id`,
      { replacements: { stamp }, transaction }
    )
  })
}
