// Display helpers shared by the insight pages (audit logs, commissions, analytics, agent performance).
export { formatCedis } from '../../../server/lib/money.ts'

// The one day-first date format (dd/mm/yyyy) every page shows.
export { formatDate as formatDateTime, NETWORK_LABEL, networkLabel, paymentStatusLabel, query } from '../../../renderer/format.ts'

/** Today's date as 'YYYY-MM-DD' in Ghana (UTC). */
export const todayIso = () => new Date().toISOString().slice(0, 10)
