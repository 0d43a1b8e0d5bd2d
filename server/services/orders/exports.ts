import type { Client as PgClient } from 'pg'
import pgCopy from 'pg-copy-streams'
import type { Transaction } from 'sequelize'
import { CrlfRows, type CopyCsv } from '../../lib/csv-copy.ts'
import { backToSavepointUnprobed, exportCopySql, isExportKeyClash, savepointUnprobed, walkFor } from './queries-export.ts'

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
 * While no prune is pending the statement leaves out its probe of order_exports (ADR 0054), in a
 * savepoint: a clash on order_exports' key before any byte reached the sink runs it again with the
 * probe; after, the export fails (its caller marks the candidates for the next one).
 */
export async function copyExport(t: Transaction, csv: CopyCsv, stampSql: string, sink: ExportSink): Promise<number> {
  const client = (t as unknown as { connection: PgClient }).connection
  const walk = await walkFor(client, csv.select, stampSql)
  const out = new ExportOut(csv, sink)
  if (!walk.probed) return streamCopy(client, exportCopySql(csv, walk, stampSql), out)
  await savepointUnprobed(client)
  try {
    return await streamCopy(client, exportCopySql(csv, walk, stampSql), out)
  } catch (err) {
    // The clash comes when the marking runs, after the rows: a retry is clean only while none has left.
    if (!isExportKeyClash(err) || !out.restart()) throw err
    await backToSavepointUnprobed(client)
    return streamCopy(client, exportCopySql(csv, walk.probed, stampSql), out)
  }
}

/** The file on its way to the sink: PostgreSQL's pieces made CRLF and gathered into writes of WRITE_BYTES. */
class ExportOut {
  readonly csv: CopyCsv
  readonly sink: ExportSink
  crlf = new CrlfRows()
  pending: Buffer[]
  pendingBytes: number
  started = false
  written = false

  constructor(csv: CopyCsv, sink: ExportSink) {
    this.csv = csv
    this.sink = sink
    this.pending = [csv.head]
    this.pendingBytes = csv.head.length
  }

  async add(chunk: Buffer): Promise<void> {
    if (!this.started) {
      this.started = true
      await this.sink.start()
    }
    const rows = this.crlf.convert(chunk)
    this.pending.push(rows)
    this.pendingBytes += rows.length
    if (this.pendingBytes >= WRITE_BYTES) await this.flush()
  }

  async flush(): Promise<void> {
    const out = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending, this.pendingBytes)
    this.pending = []
    this.pendingBytes = 0
    this.written = true
    await this.sink.write(out)
  }

  /** Back to the file's first byte, for a second statement; false once bytes have gone to the sink. */
  restart(): boolean {
    if (this.written) return false
    this.crlf = new CrlfRows()
    this.pending = [this.csv.head]
    this.pendingBytes = this.csv.head.length
    return true
  }
}

/**
 * Streams one COPY into `out`. When the sink fails midway, the rest of the COPY is read and dropped
 * (the connection must reach the end of the statement before the caller's ROLLBACK can be sent), then
 * the failure is thrown.
 */
async function streamCopy(client: PgClient, sql: string, out: ExportOut): Promise<number> {
  const copy = client.query(pgCopy.to(sql))
  let failure: { err: unknown } | undefined
  for await (const chunk of copy as AsyncIterable<Buffer>) {
    if (failure) continue
    try {
      await out.add(chunk)
    } catch (err) {
      failure = { err }
    }
  }
  if (!failure && out.started && out.pendingBytes > 0) await out.flush()
  if (failure) throw failure.err
  return out.crlf.rows
}

/** The job that takes an export's orders out of the candidates, queued in the export's transaction. */
export const PRUNE_CANDIDATES_TASK = 'orders.prune-export-candidates'
