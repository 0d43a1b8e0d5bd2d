/** Display helpers shared by the agent portal pages (and the admin agents page). */
export const NETWORKS = ['MTN', 'TELECEL', 'AIRTELTIGO'] as const
export const NETWORK_LABEL: Record<string, string> = { MTN: 'MTN', TELECEL: 'Telecel', AIRTELTIGO: 'AirtelTigo' }

/** 1 GB = 1024 MB; 1024 MB or more shows as GB with 1 decimal (spec section 9). */
export function formatSize(mb: number | null | undefined): string {
  const n = Number(mb ?? 0)
  return n >= 1024 ? `${(n / 1024).toFixed(1)}GB` : `${n}MB`
}

// Ghana's own zone: the server and the browser render the same text, so hydration matches.
const dateFmt = new Intl.DateTimeFormat('en-GH', { timeZone: 'Africa/Accra', day: '2-digit', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' })
const dayFmt = new Intl.DateTimeFormat('en-GH', { timeZone: 'Africa/Accra', day: '2-digit', month: 'short', year: 'numeric' })
export const formatDate = (iso: string | null | undefined) => (iso ? dateFmt.format(new Date(iso)) : '-')
export const formatDay = (iso: string | null | undefined) => (iso ? dayFmt.format(new Date(iso)) : '-')

/** Badge colours: SUCCESS green, PENDING yellow, FAILED red, DELIVERED blue (spec section 4). */
export function statusClass(status: string | null | undefined): string {
  switch (String(status ?? '').toUpperCase()) {
    case 'SUCCESS': return 'is-success'
    case 'PENDING': return 'is-warning'
    case 'IN_PROGRESS': return 'is-info'
    case 'FAILED': return 'is-danger'
    case 'DELIVERED': return 'is-link'
    default: return 'is-light'
  }
}

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

export const digitsOnly = (v: string, max = 12) => v.replace(/\D/g, '').slice(0, max)
