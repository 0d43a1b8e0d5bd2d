import type { AgentView } from '../../../server/services/agents/index.ts'
import { formatCedis } from '../../../server/lib/money.ts'
import { NO_FEE_TITLE, STAGE_TITLE, noFeeDue, stageOf } from './onboarding.ts'
import { useFeeCheck } from './useAgent.ts'

const TONE = { required: 'is-warning', processing: 'is-info', failed: 'is-danger', awaiting: 'is-primary', active: 'is-success' } as const

/** The payment / approval banner of the dashboard (spec section 4, Agent onboarding). */
export function StatusBanner({ agent, fee, onAgent }: { agent: AgentView | null; fee: number; onAgent: (a: AgentView) => void }) {
  const stage = stageOf(agent)
  const { check, checking } = useFeeCheck(onAgent)
  let text: string
  let action = null
  switch (stage) {
    case 'required':
      text =
        fee > 0
          ? `Pay the one-time registration fee of ${formatCedis(fee)} to activate your agent account.`
          : 'Complete the registration step to activate your agent account.'
      action = (
        <a className="button is-warning is-dark" href="/agent/payment">
          Complete Payment
        </a>
      )
      break
    case 'processing':
      text = 'We are waiting for your registration payment to be confirmed. Approve the prompt on your phone, then tap I Have Paid.'
      action = (
        <button className={`button is-info${checking ? ' is-loading' : ''}`} disabled={checking} onClick={() => void check()}>
          I Have Paid
        </button>
      )
      break
    case 'failed':
      text = 'Your registration payment did not go through. Retry Payment starts a new payment with a new transaction ID.'
      action = (
        <a className="button is-danger" href="/agent/payment">
          Retry Payment
        </a>
      )
      break
    case 'awaiting':
      text = noFeeDue(agent)
        ? 'No registration fee is due. An admin will approve your account, usually within 24-48 hours.'
        : 'Your payment is verified. An admin will approve your account, usually within 24-48 hours.'
      break
    default:
      text = 'Your account is approved and paid. You can place orders at agent prices.'
  }
  return (
    <div className={`notification ${TONE[stage]} is-light`} role="status" data-testid="agent-status" data-stage={stage}>
      <p className="has-text-weight-bold is-size-5 mb-1">{stage === 'awaiting' && noFeeDue(agent) ? NO_FEE_TITLE : STAGE_TITLE[stage]}</p>
      <p className="mb-2">{text}</p>
      {action}
    </div>
  )
}
