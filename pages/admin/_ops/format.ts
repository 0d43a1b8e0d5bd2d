// Orders/AFA/Overview display helpers: the shared ones (renderer/format.ts) plus the admin status labels.
import { paymentStatusLabel, statusClass } from '../../../renderer/format.ts'
export { CHANNEL_LABEL, formatCedis, formatDate, NETWORK_LABEL, formatSize as sizeLabel } from '../../../renderer/format.ts'

/** Spec section 4: admin labels for payment statuses (colours from the shared statusClass). */
export const statusOf = (s: string | null | undefined) => ({ label: paymentStatusLabel(s, 'N/A'), cls: statusClass(s) })

export const countText = (n: number) => n.toLocaleString('en-GH')
