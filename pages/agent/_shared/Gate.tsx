import type { AgentView } from '../../../server/services/agents/index.ts'
import { isActiveAgent } from '../../../renderer/format.ts'

/**
 * What an agent sees instead of ordering until approved and paid (spec: My Orders / Place Order):
 * the 'Payment Required' banner, step 1 while a payment exists and is not SUCCESS, step 2 while
 * the payment is SUCCESS or absent and the account is not approved.
 */
export function Gate({ agent }: { agent: AgentView | null }) {
  if (!agent)
    return (
      <p className="notification is-light" role="status">
        Checking your account status...
      </p>
    )
  if (isActiveAgent(agent)) return null
  const status = agent.paymentStatus
  const step1 = !!status && status !== 'SUCCESS'
  const step2 = (!status || status === 'SUCCESS') && !agent.approved
  return (
    <div data-testid="agent-gate">
      <div className="notification is-warning is-light" role="alert">
        <p className="has-text-weight-bold">Payment Required</p>
        <p>Ordering and the orders table open once your registration payment is successful and an admin has approved your account.</p>
        {!status ? (
          <a className="button is-warning is-dark mt-2" href="/agent/payment">
            Complete Payment
          </a>
        ) : null}
      </div>
      {step1 ? (
        <div className="box">
          <p className="has-text-weight-bold">
            <span className="tag is-warning mr-2">Step 1</span>Complete Registration Payment
          </p>
          <p className="my-2">Your registration payment is not complete yet ({String(status).replace('_', ' ').toLowerCase()}).</p>
          <a className="button is-primary" href="/agent/payment">
            Complete Registration Payment
          </a>
        </div>
      ) : null}
      {step2 ? (
        <div className="box">
          <p className="has-text-weight-bold">
            <span className="tag is-info mr-2">Step 2</span>Waiting for Admin Approval
          </p>
          <p className="mt-2">An admin reviews new agents, usually within 24-48 hours. You can order as soon as you are approved.</p>
        </div>
      ) : null}
    </div>
  )
}
