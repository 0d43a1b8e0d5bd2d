/** Display helpers shared by the agent portal pages (and the admin agents page). */
export { NETWORKS, NETWORK_LABEL, formatSize, formatDate, formatDay, statusClass, digitsOnly } from '../../../renderer/format.ts'

/** Admin-style labels for payment statuses. */
export function paymentLabel(status: string | null | undefined): string {
  switch (String(status ?? '').toUpperCase()) {
    case 'PENDING': return 'Pending'
    case 'IN_PROGRESS': return 'In Progress'
    case 'SUCCESS': return 'Successful'
    case 'FAILED': return 'Failed'
    case 'EXPIRED': return 'Expired'
    case '': return 'Not Started'
    default: return String(status)
  }
}

/** Copies text; falls back to a hidden textarea where the Clipboard API is not allowed. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text)
    return true
  } catch {
    try {
      const ta = document.createElement('textarea')
      ta.value = text
      ta.setAttribute('readonly', '')
      ta.style.position = 'fixed'
      ta.style.opacity = '0'
      document.body.appendChild(ta)
      ta.select()
      const ok = document.execCommand('copy')
      ta.remove()
      return ok
    } catch {
      return false
    }
  }
}

