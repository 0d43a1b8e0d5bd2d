import type { PayoutView } from '../../../server/services/payouts/index.ts'

/** What GET /api/payouts answers (the agent's page). */
export interface PayoutsView {
  available: number
  settings: { minimum: number; fee: number; approvalAbove: number }
  number: { id: number; network: string; networkLabel: string; phone: string; accountName: string; verifiedAt: string } | null
  payouts: PayoutView[]
  simulator: boolean
}

/** Payout statuses as people read them, with the Bulma tag colour. */
export const PAYOUT_STATUS: Record<string, { label: string; tag: string }> = {
  PENDING_APPROVAL: { label: 'Awaiting approval', tag: 'is-warning' },
  QUEUED: { label: 'Queued', tag: 'is-info' },
  SENDING: { label: 'Sending', tag: 'is-info' },
  SENT: { label: 'Sent, awaiting network', tag: 'is-info' },
  UNKNOWN: { label: 'Checking with the network', tag: 'is-warning' },
  SUCCESS: { label: 'Paid', tag: 'is-success' },
  FAILED: { label: 'Failed, money returned', tag: 'is-danger' },
  REVERSED: { label: 'Reversed, money returned', tag: 'is-danger' },
  REJECTED: { label: 'Rejected, money returned', tag: 'is-dark' }
}

export const OPEN_PAYOUT = ['PENDING_APPROVAL', 'QUEUED', 'SENDING', 'SENT', 'UNKNOWN']

export function PayoutStatusTag({ status }: { status: string }) {
  const s = PAYOUT_STATUS[status] ?? { label: status, tag: '' }
  return (
    <span className={`tag ${s.tag}`} data-status={status}>
      {s.label}
    </span>
  )
}
