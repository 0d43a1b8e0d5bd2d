/** Display helpers for the public storefront pages (the shared ones live in renderer/format.ts). */
export { formatCedis, NETWORKS, NETWORK_LABEL, formatSize, formatDate, statusClass, EMAIL_RE, digitsOnly, isActiveAgent } from '../../renderer/format.ts'
