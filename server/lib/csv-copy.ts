import { BOM, headerLine, type CsvKind } from './csv.ts'

/**
 * CSV written by PostgreSQL itself (`COPY (query) TO STDOUT WITH (FORMAT csv, ...)`), following the
 * rules of csv.ts, for exports too large to build row by row in Node (ADR 0023):
 *
 * - `raw`: a value shaped by the query (digits, a date-time, an amount, one of our own labels):
 *   written as PostgreSQL prints it (it quotes a value holding a comma, quote or line break).
 * - `phone`: `"\t0241234567"`, always quoted (FORCE_QUOTE), quotes doubled: text in both
 *   spreadsheets, leading zero kept.
 * - `text` (free text people typed): a value starting with = + - @ TAB CR gets the TAB in front
 *   (formula injection) and every value is quoted (FORCE_QUOTE): the one difference from csv.ts,
 *   which quotes such a field only when it needs it; both read the same.
 * - An empty string is written as an empty field, like NULL (`nullif`): PostgreSQL would write `""`.
 * - PostgreSQL ends rows with LF: `CrlfRows` makes them CRLF and counts them.
 */
export interface CopyCsvColumn {
  header: string
  kind: Extract<CsvKind, 'raw' | 'phone' | 'text'>
  /** An SQL expression over the query's FROM. */
  sql: string
}

const FORMULA_START = `('=', '+', '-', '@', E'\\t', E'\\r')`

function columnSql(c: CopyCsvColumn): string {
  if (c.kind === 'raw') return c.sql
  const v = `nullif((${c.sql})::text, '')`
  if (c.kind === 'phone') return `E'\\t' || ${v}`
  return `CASE WHEN left(${v}, 1) IN ${FORMULA_START} THEN E'\\t' || ${v} ELSE ${v} END`
}

export interface CopyCsv {
  /** `expr AS c1, ...`: the select list that shapes each value. */
  select: string
  /** `c1, c2, ...`: the output columns, in order. */
  names: string
  /** COPY's options: CSV, with the quoted kinds forced. */
  options: string
  /** The file's first bytes: BOM and header line. */
  head: Buffer
}

export function copyCsv(columns: CopyCsvColumn[]): CopyCsv {
  const name = (i: number) => `c${i + 1}`
  const quoted = columns.flatMap((c, i) => (c.kind === 'raw' ? [] : [name(i)]))
  return {
    select: columns.map((c, i) => `${columnSql(c)} AS ${name(i)}`).join(',\n         '),
    names: columns.map((_, i) => name(i)).join(', '),
    options: `FORMAT csv${quoted.length ? `, FORCE_QUOTE (${quoted.join(', ')})` : ''}`,
    head: Buffer.from(BOM + headerLine(columns))
  }
}

const LF = 0x0a
const CR = 0x0d
const QUOTE = 0x22

/**
 * Turns the LF that ends each row of PostgreSQL's CSV into CRLF (RFC 4180, what Excel writes), and
 * counts the rows. A line break inside a quoted field is data and stays as it is: the quotes seen so
 * far (doubled ones included) are counted across chunks, and only an LF after an even number of them
 * ends a row.
 */
export class CrlfRows {
  rows = 0
  private inQuotes = false

  convert(chunk: Buffer): Buffer {
    const ends: number[] = []
    let inQuotes = this.inQuotes
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]
      if (b === QUOTE) inQuotes = !inQuotes
      else if (b === LF && !inQuotes) ends.push(i)
    }
    this.inQuotes = inQuotes
    this.rows += ends.length
    if (ends.length === 0) return chunk
    const out = Buffer.allocUnsafe(chunk.length + ends.length)
    let from = 0
    let to = 0
    for (const end of ends) {
      to += chunk.copy(out, to, from, end)
      out[to++] = CR
      out[to++] = LF
      from = end + 1
    }
    chunk.copy(out, to, from)
    return out
  }
}
