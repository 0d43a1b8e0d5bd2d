/** Display helpers every page shares (server and browser print the same text, so hydration matches). */
export { formatCedis } from '../server/lib/money.ts'

export const NETWORKS = ['MTN', 'TELECEL', 'AIRTELTIGO'] as const
export type NetworkName = (typeof NETWORKS)[number]
export const NETWORK_LABEL: Record<string, string> = { MTN: 'MTN', TELECEL: 'Telecel', AIRTELTIGO: 'AirtelTigo' }
export const networkLabel = (n: string | null | undefined) => (n ? NETWORK_LABEL[n] ?? n : '-')

/** 1 GB = 1024 MB; 1024 MB or more shows as GB with 1 decimal, else MB (spec section 9). */
export function formatSize(mb: number | null | undefined): string {
  const n = Number(mb ?? 0)
  return n >= 1024 ? `${(n / 1024).toFixed(1)}GB` : `${n}MB`
}

// Ghana's own zone (GMT all year), fixed so the server render and the browser agree.
const dateFmt = new Intl.DateTimeFormat('en-GH', { timeZone: 'Africa/Accra', day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
const dayFmt = new Intl.DateTimeFormat('en-GH', { timeZone: 'Africa/Accra', day: '2-digit', month: 'short', year: 'numeric' })
const valid = (d: string | Date | null | undefined): Date | null => {
  if (!d) return null
  const date = d instanceof Date ? d : new Date(d)
  return Number.isNaN(date.getTime()) ? null : date
}
export const formatDate = (d: string | Date | null | undefined) => {
  const date = valid(d)
  return date ? dateFmt.format(date) : '-'
}
export const formatDay = (d: string | Date | null | undefined) => {
  const date = valid(d)
  return date ? dayFmt.format(date) : '-'
}

/** Badge colours (spec section 4): SUCCESS green, PENDING yellow, IN_PROGRESS blue, FAILED red, EXPIRED grey, DELIVERED blue. */
export function statusClass(status: string | null | undefined): string {
  switch (String(status ?? '').toUpperCase()) {
    case 'SUCCESS': return 'is-success'
    case 'PENDING': return 'is-warning'
    case 'IN_PROGRESS': return 'is-info'
    case 'FAILED': return 'is-danger'
    case 'EXPIRED': return 'is-dark'
    case 'DELIVERED': return 'is-link'
    default: return 'is-light'
  }
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Keeps digits only, at most `max` (phone and recipient fields: 12). */
export const digitsOnly = (v: string, max = 12) => v.replace(/\D/g, '').slice(0, max)

/** Query string from the non-empty entries. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v))
  return q.toString()
}
