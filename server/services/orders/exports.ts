import type { Client as PgClient } from 'pg'
import pgCopy from 'pg-copy-streams'
import type { Sequelize, Transaction } from 'sequelize'
import { CrlfRows, type CopyCsv } from '../../lib/csv-copy.ts'

// The CSV export's record (ADR 0021): an order is exported when it has a row in order_exports; its
// orders row is left as it was. Read delivery/export state through orders_view (migration 190).

/**
 * What "pending" means for the export: paid, not yet delivered, not exported before, and not being
 * delivered automatically: never sent (manual mode) or failed at the vendor. Over
 * `orders o`: an exported order keeps its row as it was (ADR 0021), so the export is the row in
 * order_exports.
 */
const EXPORTABLE = `o.payment_status = 'SUCCESS' AND NOT o.delivered AND o.delivery_status IN ('NOT_STARTED','FAILED')
  AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)`

/** How the export finds them: the FROM (its columns read `o` and `a`) and the key that orders the rows. */
interface ExportWalk {
  from: string
  key: string
}

/**
 * A short export (ADR 0050): the orders named in order_export_candidates (kept by triggers on orders),
 * in their key's order, each one's orders row read by key and `EXPORTABLE` applied to it, then its
 * agent. The lateral subqueries (OFFSET 0 keeps them whole) make each step a lookup by key, so the
 * first row goes out at once: as plain joins the planner hashed the whole orders table and sorted
 * the result before the first row (2.5 s at a million orders).
 */
const BY_KEY: ExportWalk = {
  from: `FROM order_export_candidates c
  CROSS JOIN LATERAL (SELECT o.* FROM orders o WHERE o.id = c.order_id AND ${EXPORTABLE} OFFSET 0) o
  LEFT JOIN LATERAL (SELECT a.* FROM agents a WHERE a.id = o.agent_id OFFSET 0) a ON true`,
  key: 'c.order_id'
}

/**
 * A long export: one pass over orders (the planner's hash joins, in parallel) costs PostgreSQL less
 * per row than a lookup per order once the export is a large share of the table (at a million orders:
 * 13.5 against 24 us per row at 400,000, and the wait before the first row is spread over many rows).
 */
const ONE_PASS: ExportWalk = { from: `FROM orders o LEFT JOIN agents a ON a.id = o.agent_id WHERE ${EXPORTABLE}`, key: 'o.id' }

/** Lookups while the candidates are under 1/LOOKUP_SHARE of the orders (as the planner last counted them). */
const LOOKUP_SHARE = 8

async function walkFor(client: PgClient): Promise<ExportWalk> {
  const { rows } = await client.query<{ candidates: number; orders: number }>(
    `SELECT (SELECT count(*) FROM order_export_candidates)::int AS candidates,
            (SELECT reltuples FROM pg_class WHERE oid = 'orders'::regclass)::float8 AS orders`
  )
  const { candidates, orders } = rows[0]!
  return candidates * LOOKUP_SHARE < orders ? BY_KEY : ONE_PASS
}

/** How much of the file goes to the sink (the encoder) at a time. */
const WRITE_BYTES = 64 * 1024

/** Where an export's CSV goes (the HTTP response, through its encoder). */
export interface ExportSink {
  /** Called once, when the first rows are ready, before the first write (the HTTP layer sends its headers here). */
  start(): void | Promise<void>
  /** The next bytes of the file (BOM and header line first); rejecting (receiver gone, disk full) rolls everything back. */
  write(chunk: Buffer): Promise<void>
}

/**
 * One statement marks and streams the export (ADR 0023): PostgreSQL picks the exportable orders once
 * (a materialized CTE holding the CSV columns), writes them out as CSV while it scans, and inserts
 * their order_exports rows from the same picked set when the output is done, before the statement
 * ends. COPY, unlike a cursor or an extended-protocol portal, sends the rows as they are made: a
 * portal over a data-modifying statement runs it to completion into a tuplestore before its first
 * row. The picked orders stay in order_export_candidates (`EXPORTABLE` skips them) until the
 * prune job the caller queues takes them out (ADR 0050). Returns the number of rows; 0 when nothing
 * was exportable (nothing was sent or marked).
 *
 * The columns' SQL reads `o` and `a` (`ExportWalk`); `stampSql` is the export's time as an SQL
 * literal (COPY takes no bind parameters).
 *
 * When the sink fails midway, the rest of the COPY is read and dropped (the connection must reach
 * the end of the statement before the caller's ROLLBACK can be sent), then the failure is thrown.
 */
export async function copyExport(t: Transaction, csv: CopyCsv, stampSql: string, sink: ExportSink): Promise<number> {
  const client = (t as unknown as { connection: PgClient }).connection
  const walk = await walkFor(client)
  // The outer ORDER BY is the CTE's own order (PostgreSQL 17+ sees it): no second sort.
  const copy = client.query(
    pgCopy.to(`COPY (
      WITH picked AS MATERIALIZED (
        SELECT ${walk.key} AS order_id, ${csv.select}
        ${walk.from}
         ORDER BY ${walk.key}
      ), marked AS (
        INSERT INTO order_exports (order_id, exported_at) SELECT order_id, ${stampSql}::timestamptz FROM picked
      )
      SELECT ${csv.names} FROM picked ORDER BY order_id
    ) TO STDOUT WITH (${csv.options})`)
  )
  const crlf = new CrlfRows()
  // PostgreSQL's output arrives in pieces of a few KB; each write costs the encoder a round through the
  // thread pool and a callback, so pieces are gathered into writes of WRITE_BYTES (ADR 0047).
  let pending: Buffer[] = [csv.head]
  let pendingBytes = csv.head.length
  const flush = async () => {
    const out = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes)
    pending = []
    pendingBytes = 0
    await sink.write(out)
  }
  let started = false
  let failure: { err: unknown } | undefined
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    if (failure) continue
    try {
      if (!started) {
        started = true
        await sink.start()
      }
      const rows = crlf.convert(chunk)
      pending.push(rows)
      pendingBytes += rows.length
      if (pendingBytes >= WRITE_BYTES) await flush()
    } catch (err) {
      failure = { err }
    }
  }
  if (!failure && started && pendingBytes > 0) await flush()
  if (failure) throw failure.err
  return crlf.rows
}

/** The job that takes an export's orders out of the candidates, queued in the export's transaction. */
export const PRUNE_CANDIDATES_TASK = 'orders.prune-export-candidates'

/**
 * Takes the orders of the export stamped `stampSql` out of order_export_candidates (idempotent). Done
 * after the export's commit rather than in its statement: deleting 400,000 candidates there cost the
 * export ~3 us of PostgreSQL per row before its COMMIT, and a candidate already exported is skipped by
 * `EXPORTABLE` meanwhile. The stamp's rows are found by order_exports_at_idx.
 */
export async function pruneCandidates(sequelize: Sequelize, stamp: string): Promise<void> {
  await sequelize.query('DELETE FROM order_export_candidates c USING order_exports x WHERE x.exported_at = :stamp AND x.order_id = c.order_id', {
    replacements: { stamp }
  })
}
