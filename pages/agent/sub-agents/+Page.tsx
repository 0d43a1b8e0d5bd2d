import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { NETWORK_LABEL } from '../../../renderer/format.ts'
import { formatCedis } from '../../../server/lib/money.ts'
import { Gate } from '../_shared/Gate.tsx'
import type { SubAgentsData } from './+data.ts'
import { SubAgentList } from './SubAgentList.tsx'
import { SubAgentPrices } from './SubAgentPrices.tsx'

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: SubAgentsData }
  const { agent, mine, parent, origin } = pc.data
  return (
    <section>
      <h1 className="title">Sub-agents</h1>
      <Gate agent={agent} />
      {parent ? (
        <>
          <p className="subtitle is-6">
            You joined through {parent.parent ? <strong>{parent.parent.name}</strong> : 'another agent'}
            {parent.parent ? ` (${parent.parent.phone})` : ''}. These are your prices on every channel.
          </p>
          <div className="table-container">
            <table className="table is-fullwidth is-stacked-mobile" aria-label="Your prices">
              <thead>
                <tr>
                  <th scope="col">Bundle</th>
                  <th scope="col">Your price</th>
                </tr>
              </thead>
              <tbody>
                {parent.prices.map((p) => (
                  <tr key={p.packageId}>
                    <td data-label="Bundle">
                      {p.name} ({NETWORK_LABEL[p.network as keyof typeof NETWORK_LABEL] ?? p.network})
                    </td>
                    <td data-label="Your price">{formatCedis(p.price)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      {mine ? (
        <>
          <p className="subtitle is-6">
            Agents who register through your link buy at the prices you set here; you earn the difference when their bundles are delivered.
          </p>
          <div className="columns is-multiline">
            <div className="column is-12-tablet is-4-desktop">
              <div className="box has-text-centered">
                <p className="heading">Earned from sub-agents</p>
                <p className="stat-value" data-testid="sub-agent-earnings">
                  {formatCedis(mine.earned)}
                </p>
                <p className="mt-2">
                  <a href="/agent/payouts">Payout history</a>
                </p>
              </div>
            </div>
            <div className="column">
              <div className="box">
                <h2 className="title is-5">Invite link</h2>
                {mine.invitePath ? (
                  <>
                    <label className="label" htmlFor="invite-link">
                      Share this link
                    </label>
                    <input
                      id="invite-link"
                      className="input"
                      readOnly
                      value={`${origin}${mine.invitePath}`}
                      onFocus={(e) => e.currentTarget.select()}
                      data-testid="invite-link"
                    />
                    <p className="help">
                      {mine.parentsApprove
                        ? 'You approve the agents who join through it once their fee is paid.'
                        : 'An admin approves the agents who join through it, as for any agent.'}
                    </p>
                  </>
                ) : (
                  <p>Your tier does not include sub-agents yet. Sell more to move up, or ask an admin.</p>
                )}
              </div>
            </div>
          </div>
          <h2 className="title is-5">Your sub-agents</h2>
          <SubAgentList initial={mine.subAgents} parentsApprove={mine.parentsApprove} />
          <SubAgentPrices lines={mine.prices} />
        </>
      ) : null}
    </section>
  )
}
