import { usePageContext } from '../../../renderer/usePageContext.tsx'
import type { AgentBase } from '../_shared/agent-data.ts'
import { AgentBenefits } from '../_shared/AgentBenefits.tsx'
import { formatDay, paymentLabel, statusClass } from '../_shared/format.ts'
import { useAgent } from '../_shared/useAgent.ts'
import { ChangePassword } from './ChangePassword.tsx'
import { PinCard } from './PinCard.tsx'
import { SessionsCard } from './SessionsCard.tsx'
import { ApiAccess } from './ApiAccess.tsx'
import { isActiveAgent } from '../../../renderer/format.ts'

const AGENT_RELOAD_MS = 30_000

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: AgentBase }
  // Spec: reload agent data every 30 s and whenever the tab becomes visible again.
  const { agent, refresh } = useAgent(pc.data.agent, { everyMs: AGENT_RELOAD_MS })
  const name = agent?.name ?? pc.user?.name ?? ''
  const email = agent?.email ?? pc.user?.email ?? ''
  const row = (label: string, value: React.ReactNode, testid?: string) => (
    <tr>
      <th scope="row">{label}</th>
      <td data-testid={testid}>{value}</td>
    </tr>
  )
  return (
    <section>
      <h1 className="title">Profile</h1>
      <div className="columns">
        <div className="column">
          <div className="card mb-4">
            <header className="card-header">
              <h2 className="card-header-title">Account Information</h2>
            </header>
            <div className="card-content">
              <div className="is-flex is-align-items-center mb-4">
                <span className="tag is-primary is-rounded is-large mr-3" aria-hidden="true" style={{ width: 48, height: 48 }}>
                  {(name || email || '?').charAt(0).toUpperCase()}
                </span>
                <div>
                  <p className="has-text-weight-bold">{name}</p>
                  <p className="is-size-7">{email}</p>
                </div>
              </div>
              {!agent ? (
                <p>Checking your account status...</p>
              ) : (
                <table className="table is-fullwidth">
                  <tbody>
                    {row('Business Name', agent.name)}
                    {row('Phone Number', agent.phone)}
                    {row('Email', email)}
                    {row(
                      'Approval Status',
                      agent.approved ? <span className="tag is-success">Approved</span> : <span className="tag is-warning">Pending Approval</span>,
                      'approval-status'
                    )}
                    {row(
                      'Payment Status',
                      <span className={`tag ${statusClass(agent.paymentStatus)}`}>{paymentLabel(agent.paymentStatus)}</span>,
                      'payment-status'
                    )}
                    {row('Member Since', formatDay(agent.createdAt))}
                  </tbody>
                </table>
              )}
            </div>
          </div>
          <AgentBenefits />
        </div>
        <div className="column">
          <ChangePassword />
          <PinCard hasPin={!!agent?.hasPin} onReset={() => void refresh()} />
          <SessionsCard />
          {isActiveAgent(agent) ? <ApiAccess /> : null}
        </div>
      </div>
    </section>
  )
}
