import type { Client as PgClient } from 'pg'
import pgCopy from 'pg-copy-streams'
import type { Transaction } from 'sequelize'
import { CrlfRows, type CopyCsv } from '../../lib/csv-copy.ts'
import { exportCopySql, walkFor } from './queries-export.ts'

// The CSV export's record (ADR 0021): an order is exported when it has a row in order_exports; its
// orders row is left as it was. Read delivery/export state through orders_view (migration 190).

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
  const copy = client.query(pgCopy.to(exportCopySql(csv, await walkFor(client, csv.select), stampSql)))
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
