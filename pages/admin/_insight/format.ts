// Display helpers shared by the insight pages (audit logs, commissions, analytics, agent performance).
export { formatCedis } from '../../../server/lib/money.ts'

const dateTime = new Intl.DateTimeFormat('en-GH', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Africa/Accra' })
const dateOnly = new Intl.DateTimeFormat('en-GH', { dateStyle: 'medium', timeZone: 'Africa/Accra' })

export const formatDateTime = (iso: string | null | undefined) => (iso ? dateTime.format(new Date(iso)) : '-')
export const formatDate = (iso: string | null | undefined) => (iso ? dateOnly.format(new Date(iso)) : '-')

export { NETWORK_LABEL, networkLabel, query } from '../../../renderer/format.ts'

/** Today's date as 'YYYY-MM-DD' in Ghana (UTC). */
export const todayIso = () => new Date().toISOString().slice(0, 10)
