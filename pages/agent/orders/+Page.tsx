import { usePageContext } from '../../../renderer/usePageContext.tsx'
import type { AgentBase } from '../_shared/agent-data.ts'
import { Gate } from '../_shared/Gate.tsx'
import { isActiveAgent } from '../../../renderer/format.ts'
import { useAgent } from '../_shared/useAgent.ts'
import { OrdersTable } from './OrdersTable.tsx'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: AgentBase }
  const { agent } = useAgent(pc.data.agent)
  const active = isActiveAgent(agent)
  return (
    <section>
      <div className="is-flex is-flex-wrap-wrap is-justify-content-space-between is-align-items-flex-start mb-5" style={{ gap: '.75rem' }}>
        <div>
          <h1 className="title">My Orders</h1>
          <p className="subtitle is-6">Track and manage your data orders</p>
        </div>
        <div>
          {active ? (
            <a className="button is-primary" href="/agent/place-order">
              Place New Order
            </a>
          ) : (
            <button className="button is-primary" disabled title="Available once your account is approved and paid">
              Place New Order
            </button>
          )}
        </div>
      </div>
      <Gate agent={agent} />
      {active ? <OrdersTable /> : null}
    </section>
  )
}
