export interface AgentLike { approved: boolean; paymentStatus: string | null }

export type Stage = 'required' | 'processing' | 'failed' | 'awaiting' | 'active'

/** Spec section 4, Agent onboarding. */
export function stageOf(a: AgentLike | null | undefined): Stage {
  const s = String(a?.paymentStatus ?? '').toUpperCase()
  if (!s) return 'required'
  if (s === 'PENDING' || s === 'IN_PROGRESS') return 'processing'
  if (s !== 'SUCCESS') return 'failed'
  return a!.approved ? 'active' : 'awaiting'
}

export const isActive = (a: AgentLike | null | undefined) => stageOf(a) === 'active'

export const STAGE_TITLE: Record<Stage, string> = {
  required: 'Payment Required',
  processing: 'Payment Processing',
  failed: 'Payment Failed',
  awaiting: 'Payment Complete - Awaiting Approval',
  active: 'Account Fully Active',
}

/** Registration payment status labels (Payment page). */
export function feeStatusLabel(status: string | null | undefined): string {
  switch (String(status ?? '').toUpperCase()) {
    case 'SUCCESS': return 'Payment Successful'
    case 'FAILED': case 'EXPIRED': return 'Payment Failed'
    case 'PENDING': return 'Payment Pending'
    case 'IN_PROGRESS': return 'Payment In Progress'
    default: return 'Not Started'
  }
}
