// Display helpers shared by the insight pages (audit logs, commissions, analytics, agent performance).
export { formatCedis } from '../../../server/lib/money.ts'

const dateTime = new Intl.DateTimeFormat('en-GH', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Accra' })
const dateOnly = new Intl.DateTimeFormat('en-GH', { dateStyle: 'medium', timeZone: 'Africa/Accra' })

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '-')
export const formatDate = (iso: string | null | undefined) => (iso ? dateOnly.format(new Date(iso)) : '-')

export const NETWORK_LABEL: Record<string, string> = { MTN: 'MTN', TELECEL: 'Telecel', AIRTELTIGO: 'AirtelTigo' }
export const networkLabel = (n: string | null | undefined) => (n ? NETWORK_LABEL[n] ?? n : '-')

/** Query string from the non-empty entries. */
export function query(params: Record<string, string | number | null | undefined>): string {
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v))
  return q.toString()
}

/** Today's date as 'YYYY-MM-DD' in Ghana (UTC). */
export const todayIso = () => new Date().toISOString().slice(0, 10)
