export interface AgentLike {
  approved: boolean
  paymentStatus: string | null
  paymentTransactionId?: string | null
}

export type Stage = 'required' | 'processing' | 'failed' | 'awaiting' | 'active'

/** Spec section 4, Agent onboarding. */
export function stageOf(a: AgentLike | null | undefined): Stage {
  const s = String(a?.paymentStatus ?? '').toUpperCase()
  if (!s) return 'required'
  if (s === 'PENDING' || s === 'IN_PROGRESS') return 'processing'
  if (s !== 'SUCCESS') return 'failed'
  return a!.approved ? 'active' : 'awaiting'
}

/** The fee step was passed with no fee configured: SUCCESS without any payment behind it. */
export const noFeeDue = (a: AgentLike | null | undefined) => String(a?.paymentStatus ?? '').toUpperCase() === 'SUCCESS' && !a?.paymentTransactionId

/** Spec's success toast says the account is active; until an admin approves it, it is not. */
export const feePaidToast = (a: AgentLike | null | undefined) =>
  a?.approved ? 'Payment successful! Your account is now active.' : 'Payment successful! Your account is awaiting admin approval (usually 24-48 hours).'

export const NO_FEE_TITLE = 'No Fee Due - Awaiting Approval'

export const STAGE_TITLE: Record<Stage, string> = {
  required: 'Payment Required',
  processing: 'Payment Processing',
  failed: 'Payment Failed',
  awaiting: 'Payment Complete - Awaiting Approval',
  active: 'Account Fully Active'
}

/** Registration payment status labels (Payment page). */
export function feeStatusLabel(status: string | null | undefined, agent?: AgentLike | null): string {
  if (agent && noFeeDue(agent)) return 'No fee due'
  switch (String(status ?? '').toUpperCase()) {
    case 'SUCCESS':
      return 'Payment Successful'
    case 'FAILED':
    case 'EXPIRED':
      return 'Payment Failed'
    case 'PENDING':
      return 'Payment Pending'
    case 'IN_PROGRESS':
      return 'Payment In Progress'
    default:
      return 'Not Started'
  }
}
