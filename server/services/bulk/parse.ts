import { readSheet } from 'read-excel-file/node'
import { badRequest } from '../../lib/errors.ts'

/** One line of a bulk order as the agent wrote it, before any check. */
export interface RawLine {
  /** 1-based: the pasted line or the file's row (a header row counts), so the agent finds it again. */
  line: number
  recipient: string
  /** As written; empty when left out (the number's prefix decides). */
  network: string
  /** A size (1GB, 500MB), a package's name or a package id. */
  bundle: string
}

export const TEMPLATE_CSV = 'recipient,network,bundle\r\n0241234567,MTN,1GB\r\n0201234567,,2GB\r\n'
export const NOTHING_TO_ORDER = 'Paste at least one line, or upload a CSV or Excel file'

/** Network words people type; the codes themselves and their labels are matched case-insensitively too. */
export const NETWORK_ALIASES: Record<string, string> = { AT: 'AIRTELTIGO', AIRTEL: 'AIRTELTIGO', TIGO: 'AIRTELTIGO', VODAFONE: 'TELECEL', VOD: 'TELECEL' }

/** Splits one CSV line into cells; double quotes may wrap a cell (a spreadsheet's own export). */
function csvCells(line: string, sep: string): string[] {
  const cells: string[] = []
  let cur = ''
  let quoted = false
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"'
        i++
      } else if (ch === '"') quoted = false
      else cur += ch
    } else if (ch === '"' && cur.trim() === '') quoted = true
    else if (ch === sep) {
      cells.push(cur)
      cur = ''
    } else cur += ch
  }
  cells.push(cur)
  return cells.map((c) => c.trim())
}

/** A row's cells: recipient, then network and bundle, or the bundle alone. */
function fromCells(cells: string[], line: number): RawLine {
  const [recipient = '', ...rest] = cells
  if (rest.length >= 2) return { line, recipient, network: rest[0]!, bundle: rest.slice(1).filter(Boolean).join(' ') }
  return { line, recipient, network: '', bundle: rest[0] ?? '' }
}

/** `0241234567 1GB`, `0241234567 MTN 1GB`: the word after the number is a network when it names one. */
function fromWords(text: string, line: number, isNetworkWord: (w: string) => boolean): RawLine {
  const [recipient = '', ...rest] = text.split(/\s+/)
  if (rest.length >= 2 && isNetworkWord(rest[0]!)) return { line, recipient, network: rest[0]!, bundle: rest.slice(1).join(' ') }
  return { line, recipient, network: '', bundle: rest.join(' ') }
}

/** A first row that holds no digit in its first cell is a header (the template's), not an order. */
const isHeader = (first: string) => first !== '' && !/\d/.test(first)

/**
 * Pasted text or a CSV file: one order per line. A line with a comma, semicolon or tab is split on
 * it (CSV); otherwise on spaces. Blank lines are skipped but counted, so line numbers match the text.
 */
export function parseText(text: string, isNetworkWord: (w: string) => boolean): RawLine[] {
  const out: RawLine[] = []
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)
  lines.forEach((raw, i) => {
    const s = raw.trim()
    if (!s) return
    const sep = [',', ';', '\t'].find((c) => s.includes(c))
    const cells = sep ? csvCells(s, sep) : null
    if (out.length === 0 && isHeader(cells ? cells[0]! : s.split(/\s+/)[0]!)) return
    out.push(cells ? fromCells(cells, i + 1) : fromWords(s, i + 1, isNetworkWord))
  })
  return out
}

/** An .xlsx upload (its first sheet), read with read-excel-file: rows of cells like a CSV's. */
export async function parseXlsx(data: Buffer): Promise<RawLine[]> {
  let rows: unknown[][]
  try {
    rows = (await readSheet(data)) as unknown[][]
  } catch {
    throw badRequest('This file could not be read as an Excel workbook (.xlsx)')
  }
  const out: RawLine[] = []
  rows.forEach((row, i) => {
    const cells = row.map((c) => (c === null || c === undefined ? '' : String(c).trim()))
    if (cells.every((c) => c === '')) return
    if (out.length === 0 && isHeader(cells[0]!)) return
    out.push(fromCells(cells, i + 1))
  })
  return out
}
