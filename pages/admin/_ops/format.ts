// Orders/AFA/Overview display helpers: the shared ones (renderer/format.ts) plus the admin status labels.
import { statusClass } from '../../../renderer/format.ts'
export { formatCedis, formatDate, NETWORK_LABEL, formatSize as sizeLabel } from '../../../renderer/format.ts'

/** Spec section 4: admin labels for payment statuses (colours from the shared statusClass). */
const LABELS: Record<string, string> = { PENDING: 'Pending', IN_PROGRESS: 'In Progress', SUCCESS: 'Successful', FAILED: 'Failed', EXPIRED: 'Expired', REFUNDED: 'Refunded', REVERSED: 'Reversed' }

export const statusOf = (s: string | null | undefined) => {
  const key = String(s ?? '').toUpperCase()
  return { label: LABELS[key] ?? (key || 'N/A'), cls: statusClass(key) }
}

export const countText = (n: number) => n.toLocaleString('en-GH')
