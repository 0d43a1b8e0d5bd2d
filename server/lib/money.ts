/** Money is integer pesewas inside; the API and pages speak GHS with 2 decimals. */
export const toPesewas = (ghs: number): number => Math.round(Number(ghs) * 100)
export const toGhs = (pesewas: number | null | undefined): number | null =>
  pesewas === null || pesewas === undefined ? null : Math.round(Number(pesewas)) / 100

const cedi = new Intl.NumberFormat('en-GH', { style: 'currency', currency: 'GHS', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** 'GH₵5.00' style text; en-GH's narrow symbol is ₵, so the GH prefix is added. */
export function formatCedis(ghs: number | null | undefined): string {
  if (ghs === null || ghs === undefined || Number.isNaN(Number(ghs))) return '-'
  const text = cedi.format(Number(ghs)).replace('GH₵', '₵')
  return text.startsWith('-') ? `-GH${text.slice(1)}` : `GH${text}`
}
