/**
 * Money is integer pesewas inside; the API and pages speak GHS with 2 decimals. This module is the
 * one place that knows a cedi is 100 pesewas: everything else converts, parses and prints through it
 * (a test greps the tree for hand-written `/ 100`, `* 100` and `toFixed(2)`). Server, USSD and pages
 * import it, so it must stay free of Node-only or server-only imports.
 */

/**
 * A whole number of pesewas. A plain alias, not a brand: amounts arrive from Sequelize rows, SQL
 * sums and JSON as plain numbers, and a brand would need a cast at each of those edges without
 * catching more than the `*Pesewas` naming and these helpers already do. The name says the unit.
 */
export type Pesewas = number

const PER_CEDI = 100

/** GHS (a number the API or a form speaks) to pesewas; rounds away float noise such as 4.35 * 100. */
export const toPesewas = (ghs: number): Pesewas => Math.round(Number(ghs) * PER_CEDI)

/** Null stays null: an amount not yet known (an order without a price) must not read as free. */
export function toGhs(pesewas: number): number
export function toGhs(pesewas: number | null | undefined): number | null
export function toGhs(pesewas: number | null | undefined): number | null {
  return pesewas === null || pesewas === undefined ? null : Math.round(Number(pesewas)) / PER_CEDI
}

/** Sums and differences of GHS a page holds drift in floats (4.8 - 4.35); money has no part below a pesewa. */
export const roundGhs = (ghs: number): number => Math.round(Number(ghs) * PER_CEDI) / PER_CEDI

/** An amount with a part below a pesewa cannot be paid out exactly, so it is refused rather than rounded. */
export const isWholePesewas = (ghs: number): boolean => Math.abs(ghs * PER_CEDI - Math.round(ghs * PER_CEDI)) <= 1e-6

/** Only plain digits: Number() would also take '1e3', ' ', '0x10' and '-1', none of which a payer means. */
const GHS_TEXT = /^\d+(\.\d{1,2})?$/

/** Typed GHS text to pesewas, or null when it is not a plain non-negative amount with at most 2 decimals. */
export function parseGhs(text: string | null | undefined): Pesewas | null {
  const s = String(text ?? '').trim()
  return GHS_TEXT.test(s) ? toPesewas(Number(s)) : null
}

/** Digits without a currency sign, for texts that name the currency themselves (a gateway's own currency code). */
export const pesewasFixed = (pesewas: number): string => (Math.round(pesewas) / PER_CEDI).toFixed(2)

/** Digits without grouping, for places a thousands comma would break: form fields, CSV cells. */
export const ghsFixed = (ghs: number): string => Number(ghs).toFixed(2)

/** Handsets and SMS may lack the cedi sign, so texts that leave the web say 'GHS 4.50'. */
export const ghsText = (pesewas: number): string => `GHS ${pesewasFixed(pesewas)}`

/** SQL for a pesewas column read as GHS with 2 decimals (exports that let the database do the sum). */
export const sqlGhs = (column: string): string => `(${column} / ${PER_CEDI}.0)::numeric(14,2)`

/** `percent` of a pesewas amount, in whole pesewas (commissions round, shop markups floor). */
export const percentOf = (pesewas: number, percent: number, round: (n: number) => number = Math.round): Pesewas => round((pesewas * Number(percent)) / 100)

// A phone pays 25-100 ms of main thread for the first en-GH currency formatter (ICU loads the locale's
// data), in the task that evaluates the page's shared code: the buy and shop pages' biggest blocking task.
// So the web's text is put together by hand, digit for digit what that formatter prints (a unit test
// compares them), and the formatter is made only for what the hand-written path does not cover.
let cedi: Intl.NumberFormat | undefined
const intlCedis = (ghs: number) =>
  (cedi ??= new Intl.NumberFormat('en-GH', {
    style: 'currency',
    currency: 'GHS',
    currencyDisplay: 'narrowSymbol',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2
  }))
    .format(ghs)
    .replace('GH₵', '₵')

/** '1,234.50' for 1234.499 or 1234.5: the shortest decimal of the number, rounded half away from zero as Intl does. */
function cediDigits(abs: number): string | null {
  const text = String(abs)
  if (!/^\d+(\.\d+)?$/.test(text)) return null
  const [whole = '0', fraction = ''] = text.split('.')
  const hundredths = BigInt(whole + fraction.slice(0, 2).padEnd(2, '0')) + (fraction.charAt(2) >= '5' ? 1n : 0n)
  const digits = hundredths.toString().padStart(3, '0')
  return `${digits.slice(0, -2).replace(/\B(?=(\d{3})+$)/g, ',')}.${digits.slice(-2)}`
}

/** 'GH₵5.00' style text; en-GH's narrow symbol is ₵, so the GH prefix is added. */
export function formatCedis(ghs: number | null | undefined): string {
  if (ghs === null || ghs === undefined || Number.isNaN(Number(ghs))) return '-'
  const n = Number(ghs)
  const digits = cediDigits(Math.abs(n))
  const text = digits === null ? intlCedis(n) : `${n < 0 || Object.is(n, -0) ? '-' : ''}₵${digits}`
  return text.startsWith('-') ? `-GH${text.slice(1)}` : `GH${text}`
}

/** The web's format for amounts the server holds in pesewas. */
export const formatPesewas = (pesewas: number | null | undefined): string => formatCedis(toGhs(pesewas))

/** Rates of counts (a success rate) are whole percents here too, and nothing done yet reads as 0, not NaN. */
export const percentage = (part: number, whole: number): number => (whole ? Math.round((part / whole) * 100) : 0)
