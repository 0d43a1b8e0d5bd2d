/** Display helpers for the public storefront pages. */
export { formatCedis } from '../../server/lib/money.ts'

export const NETWORKS = ['MTN', 'TELECEL', 'AIRTELTIGO'] as const
export type NetworkName = (typeof NETWORKS)[number]
export const NETWORK_LABEL: Record<string, string> = { MTN: 'MTN', TELECEL: 'Telecel', AIRTELTIGO: 'AirtelTigo' }

/** 1 GB = 1024 MB; 1024 MB or more shows as GB with 1 decimal, else MB (spec section 9). */
export function formatSize(mb: number | null | undefined): string {
  const n = Number(mb ?? 0)
  return n >= 1024 ? `${(n / 1024).toFixed(1)}GB` : `${n}MB`
}

// Ghana's own zone, so the server and the browser print the same text and hydration matches.
const dateFmt = new Intl.DateTimeFormat('en-GH', { timeZone: 'Africa/Accra', day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
export const formatDate = (iso: string | null | undefined) => (iso ? dateFmt.format(new Date(iso)) : '-')

/** SUCCESS green, PENDING yellow, IN_PROGRESS blue, FAILED red, EXPIRED grey. */
export function statusClass(status: string | null | undefined): string {
  switch (String(status ?? '').toUpperCase()) {
    case 'SUCCESS': return 'is-success'
    case 'PENDING': return 'is-warning'
    case 'IN_PROGRESS': return 'is-info'
    case 'FAILED': return 'is-danger'
    case 'EXPIRED': return 'is-dark'
    default: return 'is-light'
  }
}

export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** Keeps digits only, at most 12 (phone and recipient fields). */
export const digitsOnly = (v: string) => v.replace(/\D/g, '').slice(0, 12)
