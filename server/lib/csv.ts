import type { Writable } from 'node:stream'
import { ghsFixed } from './money.ts'

/**
 * Streaming CSV (RFC 4180) that opens cleanly in Excel and LibreOffice.
 *
 * - UTF-8 with a byte-order mark: without it Excel reads the file as the local ANSI code page and
 *   'GH₵' or accented names come out garbled. LibreOffice detects UTF-8 either way.
 * - CRLF line ends, every field that holds a comma, quote, CR or LF is quoted, quotes doubled.
 * - Phone numbers are written as text by putting a TAB in front (`"\t0241234567"`). Both spreadsheets
 *   otherwise turn 0241234567 into the number 241234567 (quoting alone does not stop that: Excel and
 *   LibreOffice's default import both ignore quotes for type detection). Excel's `="0241234567"`
 *   trick shows up literally in LibreOffice when it does not evaluate formulas on import (its default
 *   since 7.x), while a leading TAB keeps the digits as text in both and is invisible in the cell.
 *   The same prefix neutralises text that starts with = + - @ (spreadsheet formula injection,
 *   OWASP's advice for CSV exports) in every free-text column. Such fields are always quoted, so an
 *   import dialog that also splits on TAB still sees one field.
 * - Amounts are plain numbers with exactly 2 decimals (`5.00`), so they stay numeric in both.
 * - `raw`: a value already shaped by the caller (digits, a date-time, an amount) that holds no comma,
 *   quote or line break and starts with no formula character: written as it is.
 */
export type CsvKind = 'text' | 'phone' | 'money' | 'int' | 'datetime' | 'bool' | 'raw'

export interface CsvColumn<Row> {
  header: string
  kind?: CsvKind
  value: (row: Row) => unknown
}

const NEEDS_QUOTES = /[",\r\n]/
const FORMULA_START = /^[=+\-@\t\r]/

export const BOM = '\uFEFF'

export function quote(field: string): string {
  return NEEDS_QUOTES.test(field) ? `"${field.replace(/"/g, '""')}"` : field
}

/** One field as text, following the column's kind. */
export function formatField(value: unknown, kind: CsvKind = 'text'): string {
  if (value === null || value === undefined || value === '') return ''
  switch (kind) {
    case 'raw':
      return String(value)
    case 'phone':
      return `"\t${String(value).replace(/"/g, '""')}"`
    case 'money':
      return ghsFixed(Number(value))
    case 'int':
      return String(Math.trunc(Number(value)))
    case 'bool':
      return value ? 'Yes' : 'No'
    case 'datetime': {
      const d = value instanceof Date ? value : new Date(String(value))
      // ISO-like without the T and zone letter: both spreadsheets read 'YYYY-MM-DD HH:MM:SS' as a date-time (Ghana is UTC+0).
      return Number.isNaN(d.getTime()) ? '' : d.toISOString().slice(0, 19).replace('T', ' ')
    }
    default: {
      const s = String(value)
      return FORMULA_START.test(s) ? `"\t${s.replace(/"/g, '""')}"` : quote(s)
    }
  }
}

export function headerLine(columns: Array<{ header: string }>): string {
  return columns.map((c) => quote(c.header)).join(',') + '\r\n'
}

export function rowLine<Row>(columns: CsvColumn<Row>[], row: Row): string {
  return columns.map((c) => formatField(c.value(row), c.kind)).join(',') + '\r\n'
}

/** A whole (small) CSV document as a string; exports of any size go through `CsvStream`. */
export function toCsv<Row>(columns: CsvColumn<Row>[], rows: Iterable<Row>): string {
  let out = BOM + headerLine(columns)
  for (const r of rows) out += rowLine(columns, r)
  return out
}

/**
 * Writes CSV to a Writable (an HTTP response), one batch at a time, waiting for 'drain' when the
 * receiver is slower than the database, so memory stays flat however many rows there are.
 * `write` rejects when the receiver went away, so the caller's transaction can roll back.
 */
export class CsvStream<Row> {
  private started = false
  rows = 0
  private readonly out: Writable
  private readonly columns: CsvColumn<Row>[]
  constructor(out: Writable, columns: CsvColumn<Row>[]) {
    this.out = out
    this.columns = columns
  }

  async writeRows(rows: Row[]): Promise<void> {
    let chunk = ''
    if (!this.started) {
      chunk = BOM + headerLine(this.columns)
      this.started = true
    }
    for (const r of rows) chunk += rowLine(this.columns, r)
    this.rows += rows.length
    await this.push(chunk)
  }

  /** Header only, when there are no rows at all. */
  async begin(): Promise<void> {
    if (!this.started) await this.writeRows([])
  }

  private push(chunk: string): Promise<void> {
    return writeWithBackpressure(this.out, chunk)
  }
}

/** One 'drain' listener per stream, waking whoever waits (see writeWithBackpressure). */
const drainWaiters = new WeakMap<Writable, Set<() => void>>()

/**
 * Writes a chunk; when the receiver's buffer is full, resolves on its 'drain', so memory stays flat
 * however fast the producer is. Rejects when the receiver closes or fails first.
 *
 * The 'drain' listener is added once per stream and never removed: the `compression` middleware
 * moves `res.on('drain')` onto its zlib stream but not `res.off('drain')`, so a listener added and
 * removed per write stayed behind on the zlib stream, one per wait (Node's MaxListenersExceeded
 * warning after ten batches). 'close' and 'error' stay on the response itself.
 */
export function writeWithBackpressure(out: Writable, chunk: string | Buffer): Promise<void> {
  if (out.destroyed || out.writableEnded) return Promise.reject(new Error('The receiver closed the connection'))
  if (out.write(chunk)) return Promise.resolve()
  let waiters = drainWaiters.get(out)
  if (!waiters) {
    const set = new Set<() => void>()
    out.on('drain', () => {
      for (const wake of [...set]) wake()
    })
    drainWaiters.set(out, set)
    waiters = set
  }
  const wait = waiters
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      wait.delete(onDrain)
      out.off('close', onClose)
      out.off('error', onError)
      if (err) reject(err)
      else resolve()
    }
    const onDrain = () => done()
    const onClose = () => done(new Error('The receiver closed the connection'))
    const onError = (e: Error) => done(e)
    wait.add(onDrain)
    out.on('close', onClose)
    out.on('error', onError)
  })
}

/** Reads RFC 4180 text back into rows (tests and imports); strips a leading BOM. */
export function parseCsv(text: string): string[][] {
  const s = text.startsWith(BOM) ? text.slice(1) : text
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let i = 0
  let inQuotes = false
  while (i < s.length) {
    const c = s[i]!
    if (inQuotes) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"'
          i += 2
          continue
        }
        inQuotes = false
        i++
        continue
      }
      field += c
      i++
      continue
    }
    if (c === '"') {
      inQuotes = true
      i++
    } else if (c === ',') {
      row.push(field)
      field = ''
      i++
    } else if (c === '\r' || c === '\n') {
      row.push(field)
      rows.push(row)
      row = []
      field = ''
      i += c === '\r' && s[i + 1] === '\n' ? 2 : 1
    } else {
      field += c
      i++
    }
  }
  if (field !== '' || row.length) {
    row.push(field)
    rows.push(row)
  }
  return rows
}
