import { readSheet } from 'read-excel-file/node'
import type { Sequelize } from 'sequelize'
import { badRequest } from '../../lib/errors.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { Products } from './products.ts'
import { createVoucherQueries } from './queries.ts'

export interface StockLine {
  line: number
  serial: string
  pin: string
  expiresOn: string | null
}

/** Cards in one upload at most: a request body holds about this many (100 kB). */
export const MAX_CARDS_PER_UPLOAD = 2000

/** An upload of cards, checked at the edge (routes/vouchers/schema.ts): a CSV's text, pasted lines or an .xlsx in base64. */
export interface UploadInput {
  productId: number
  format: 'csv' | 'paste' | 'xlsx'
  content: string
}

const SERIAL_RE = /^[A-Za-z0-9-]{4,40}$/
const PIN_RE = /^[A-Za-z0-9-]{4,40}$/

function expiryOf(raw: unknown, line: number): string | null {
  if (raw === null || raw === undefined || String(raw).trim() === '') return null
  const d = raw instanceof Date ? raw : new Date(String(raw).trim())
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(d.toISOString())) throw badRequest(`Line ${line}: expiry must be a date (YYYY-MM-DD)`)
  return d.toISOString().slice(0, 10)
}

/** Rows of cells (from text or a workbook) as cards; a header row (serial, pin, ...) is skipped. Errors name the line. */
export function cardsOf(rows: unknown[][]): StockLine[] {
  const out: StockLine[] = []
  const seen = new Map<string, number>()
  rows.forEach((cells, i) => {
    const line = i + 1
    const [serialRaw, pinRaw, expiryRaw] = cells.map((c) => (c instanceof Date ? c : String(c ?? '').trim()))
    if (!serialRaw && !pinRaw) return
    if (i === 0 && /serial/i.test(String(serialRaw))) return
    const serial = String(serialRaw ?? '')
    const pin = String(pinRaw ?? '')
    if (!SERIAL_RE.test(serial)) throw badRequest(`Line ${line}: serial must be 4 to 40 letters, digits or dashes`)
    if (!PIN_RE.test(pin)) throw badRequest(`Line ${line}: PIN must be 4 to 40 letters, digits or dashes`)
    const first = seen.get(serial)
    if (first) throw badRequest(`Line ${line}: serial ${serial} is already on line ${first}`)
    seen.set(serial, line)
    out.push({ line, serial, pin, expiresOn: expiryOf(expiryRaw, line) })
  })
  if (!out.length) throw badRequest('No cards found: give one card per line as serial, PIN and an optional expiry date')
  if (out.length > MAX_CARDS_PER_UPLOAD) throw badRequest(`Upload at most ${MAX_CARDS_PER_UPLOAD} cards at a time`)
  return out
}

/** CSV or pasted text: comma, semicolon or tab separated (a spreadsheet's copy gives tabs). */
export const textRows = (text: string): string[][] =>
  text
    .replace(/\r/g, '')
    .split('\n')
    .map((l) => l.split(/[,;\t]/))

async function rowsOf(format: string, content: string): Promise<unknown[][]> {
  if (format !== 'xlsx') return textRows(content)
  try {
    return (await readSheet(Buffer.from(content, 'base64'))) as unknown[][]
  } catch {
    throw badRequest('The file is not a readable .xlsx workbook')
  }
}

export function createStock(deps: { sequelize: Sequelize; audit: AuditService; box: SecretBox; products: Products }) {
  const { sequelize, audit, box, products } = deps
  const queries = createVoucherQueries(sequelize)

  /**
   * Adds cards to a product's stock, all or none: a serial twice in the file or already in stock is
   * refused with its line. PINs are sealed before they reach the database; the audit entry holds
   * counts only.
   */
  async function upload(value: UploadInput, ctx: Ctx): Promise<{ added: number; available: number }> {
    const product = await products.load(value.productId)
    const cards = cardsOf(await rowsOf(value.format, value.content))
    return sequelize.transaction(async (t) => {
      // Two uploads of the same file at once: the second waits here and then sees the first's serials.
      await queries.lockProduct(product.id, t)
      const existing = await queries.serialsInStock(
        product.id,
        cards.map((c) => c.serial),
        t
      )
      if (existing.length) {
        const taken = new Set(existing)
        const lines = cards.filter((c) => taken.has(c.serial)).map((c) => c.line)
        throw badRequest(`Already in stock: line${lines.length > 1 ? 's' : ''} ${lines.slice(0, 20).join(', ')}${lines.length > 20 ? ', ...' : ''}`)
      }
      await queries.insertCards(
        product.id,
        ctx.user?.id ?? null,
        cards.map((c) => ({ serial: c.serial, pinSealed: box.seal(c.pin), expiresOn: c.expiresOn })),
        t
      )
      const available = await queries.availableCount(product.id, t)
      // Stock is back above the threshold: the next time it runs low, the admins are told again.
      if (available > product.lowStockThreshold) await queries.clearLowStockAlert(product.id, t)
      await audit.record(
        {
          action: 'VOUCHER_STOCK_UPLOADED',
          resource: 'VOUCHER_PRODUCT',
          resourceId: product.id,
          severity: 'MEDIUM',
          details: { product: product.name, format: value.format, added: cards.length, available }
        },
        { ...ctx, transaction: t }
      )
      return { added: cards.length, available }
    })
  }

  return { upload }
}
