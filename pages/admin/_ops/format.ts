// Display helpers shared by the Orders, AFA and Overview admin pages.
export { formatCedis } from '../../../server/lib/money.ts'

/** Spec section 4: admin labels and colours for payment statuses; other values get a neutral tag. */
export const STATUS_LABELS: Record<string, { label: string; cls: string }> = {
  PENDING: { label: 'Pending', cls: 'is-warning' },
  IN_PROGRESS: { label: 'In Progress', cls: 'is-info' },
  SUCCESS: { label: 'Successful', cls: 'is-success' },
  FAILED: { label: 'Failed', cls: 'is-danger' },
  EXPIRED: { label: 'Expired', cls: 'is-dark' },
}

export const statusOf = (s: string | null | undefined) => {
  const key = String(s ?? '').toUpperCase()
  return STATUS_LABELS[key] ?? { label: key || 'N/A', cls: 'is-light' }
}

export const NETWORK_LABEL: Record<string, string> = { MTN: 'MTN', TELECEL: 'Telecel', AIRTELTIGO: 'AirtelTigo' }

/** Spec section 9: 1024 MB or more shows as GB with 1 decimal, else MB. */
export const sizeLabel = (mb: number | null | undefined) => (mb === null || mb === undefined ? '-' : mb >= 1024 ? `${(mb / 1024).toFixed(1)}GB` : `${mb}MB`)

// Ghana's time zone, fixed, so the server render and the browser print the same text.
const dateFmt = new Intl.DateTimeFormat('en-GH', { timeZone: 'Africa/Accra', day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
export const formatDate = (d: string | Date | null | undefined) => {
  if (!d) return '-'
  const date = d instanceof Date ? d : new Date(d)
  return Number.isNaN(date.getTime()) ? '-' : dateFmt.format(date)
}

export const countText = (n: number) => n.toLocaleString('en-GH')
