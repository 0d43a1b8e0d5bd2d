/** Display helpers every page shares (server and browser print the same text, so hydration matches). */
export {
  formatCedis,
  NETWORKS,
  NETWORK_LABEL,
  MOMO_LABEL,
  networkLabel,
  paymentStatusLabel,
  deliveryLabel,
  purposeLabel,
  formatSize,
  formatDate,
  formatDay,
  isActiveAgent,
  CHANNEL_LABEL
} from '../server/lib/vocabulary.ts'

/** Badge colours (spec section 4): SUCCESS green, PENDING yellow, IN_PROGRESS blue, FAILED red, EXPIRED grey, DELIVERED blue. */
export function statusClass(status: string | null | undefined): string {
  switch (String(status ?? '').toUpperCase()) {
    case 'SUCCESS':
      return 'is-success'
    case 'PENDING':
      return 'is-warning'
    case 'IN_PROGRESS':
      return 'is-info'
    case 'FAILED':
      return 'is-danger'
    case 'EXPIRED':
      return 'is-dark'
    case 'DELIVERED':
      return 'is-link'
    default:
      return 'is-light'
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
