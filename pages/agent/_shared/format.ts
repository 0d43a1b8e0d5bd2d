/** Display helpers shared by the agent portal pages (and the admin agents page). */
import { paymentStatusLabel } from '../../../renderer/format.ts'
export { NETWORKS, NETWORK_LABEL, paymentStatusLabel, formatSize, formatDate, formatDay, statusClass, digitsOnly } from '../../../renderer/format.ts'

/** Payment status label; no status yet reads 'Not Started' (spec section 4). */
export const paymentLabel = (status: string | null | undefined) => paymentStatusLabel(status, 'Not Started')

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
