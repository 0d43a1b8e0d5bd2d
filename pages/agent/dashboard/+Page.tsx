import { DeliveryBadge } from '../../../renderer/ui/DeliveryBadge.tsx'
import { formatCedis } from '../../../server/lib/money.ts'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatDate, formatSize, NETWORK_LABEL, NETWORKS, paymentStatusLabel, statusClass } from '../_shared/format.ts'
import { isActiveAgent } from '../../../renderer/format.ts'
import { StatusBanner } from '../_shared/StatusBanner.tsx'
import { useAgent } from '../_shared/useAgent.ts'
import type { DashboardData } from './+data.ts'
import { Messages } from './Messages.tsx'

function Stat({ label, value, tone }: { label: string; value: string | number; tone?: string }) {
  return (
    <div className="column is-half-mobile is-one-quarter-tablet">
      <div className="box has-text-centered">
        <p className="heading">{label}</p>
        <p className={`stat-value ${tone ?? ''}`}>{value}</p>
      </div>
    </div>
  )
}

export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: DashboardData }
  const d = pc.data
  const { agent, setAgent } = useAgent(d.agent)
  const s = d.summary
  const active = isActiveAgent(agent)
  const maxNet = Math.max(1, ...NETWORKS.map((n) => s?.byNetwork[n] ?? 0))

  return (
    <section>
      <h1 className="title">Dashboard</h1>
      <p className="subtitle is-6">Welcome back{agent?.name ? `, ${agent.name}` : ''}.</p>
      <StatusBanner agent={agent} fee={d.fee} onAgent={setAgent} />

      {active && d.messages ? <Messages initial={d.messages} unread={d.unreadCount} /> : null}

      <div className="columns is-mobile is-multiline">
        <Stat label="Total Orders" value={s?.total ?? 0} />
        <Stat label="Successful" value={s?.success ?? 0} tone="has-text-success" />
        <Stat label="Pending" value={s?.pending ?? 0} tone="has-text-warning" />
        <Stat label="Failed" value={s?.failed ?? 0} tone="has-text-danger" />
      </div>
      {d.walletBalance !== null ? (
        <div className="box level is-mobile" data-testid="dashboard-wallet">
          <div className="level-left">
            <div>
              <p className="heading">Wallet balance</p>
              <p className="stat-value">{formatCedis(d.walletBalance)}</p>
            </div>
          </div>
          <div className="level-right">
            <a className="button is-primary is-light" href="/agent/wallet">
              Top up
            </a>
          </div>
        </div>
      ) : null}

      <div className="box">
        <h2 className="title is-5">Quick Actions</h2>
        <div className="buttons">
          {active ? (
            <a className="button is-primary" href="/agent/place-order">
              Place Order
            </a>
          ) : (
            <button className="button is-primary" disabled title="Available once approved and paid">
              Place Order
            </button>
          )}
          <a className="button" href="/agent/orders">
            My Orders
          </a>
          <a className="button" href="/agent/packages">
            View Packages
          </a>
          <a className="button" href="/agent/profile">
            Profile
          </a>
          {!active ? (
            <a className="button is-warning" href="/agent/payment">
              Payment
            </a>
          ) : null}
        </div>
      </div>

      <div className="columns">
        <div className="column">
          <div className="box" data-testid="order-summary">
            <h2 className="title is-5">Order Summary</h2>
            <table className="table is-fullwidth">
              <tbody>
                <tr>
                  <th scope="row">Total spent</th>
                  <td className="has-text-right">{formatCedis(s?.totalSpent ?? 0)}</td>
                </tr>
                <tr>
                  <th scope="row">Data purchased</th>
                  <td className="has-text-right">{formatSize(s?.dataMB ?? 0)}</td>
                </tr>
                <tr>
                  <th scope="row">Delivered</th>
                  <td className="has-text-right">{s?.delivered ?? 0}</td>
                </tr>
                <tr>
                  <th scope="row">Success rate</th>
                  <td className="has-text-right" data-testid="success-rate">
                    {s?.successRate ?? 0}%
                  </td>
                </tr>
                <tr>
                  <th scope="row">Delivery rate</th>
                  <td className="has-text-right" data-testid="delivery-rate">
                    {s?.deliveryRate ?? 0}%
                  </td>
                </tr>
              </tbody>
            </table>
          </div>
          <div className="box">
            <h2 className="title is-5">Orders by Network</h2>
            {NETWORKS.map((n) => (
              <div key={n} className="mb-2">
                <div className="is-flex is-justify-content-space-between is-size-7">
                  <span>{NETWORK_LABEL[n]}</span>
                  <span>{s?.byNetwork[n] ?? 0}</span>
                </div>
                <progress className="progress is-small is-primary mb-0" value={s?.byNetwork[n] ?? 0} max={maxNet} aria-label={`${NETWORK_LABEL[n]} orders`} />
              </div>
            ))}
          </div>
        </div>
        <div className="column">
          <div className="box">
            <div className="is-flex is-justify-content-space-between is-align-items-center mb-3">
              <h2 className="title is-5 mb-0">Recent Orders</h2>
              <a href="/agent/orders" className="is-size-7">
                View all
              </a>
            </div>
            {!s || s.recent.length === 0 ? (
              <p>{active ? 'No orders yet. Start by placing your first order!' : 'Your orders will appear here once your account is active.'}</p>
            ) : (
              <ul>
                {s.recent.map((o) => (
                  <li
                    key={o.id}
                    className="is-flex is-justify-content-space-between is-align-items-center py-2"
                    style={{ borderBottom: '1px solid var(--bulma-border)' }}>
                    <span>
                      <strong>
                        {NETWORK_LABEL[o.network] ?? o.network} {formatSize(o.dataSizeMB)}
                      </strong>
                      <br />
                      <span className="is-size-7">
                        {o.recipientNumber} · {formatDate(o.createdAt)}
                      </span>
                    </span>
                    <span className="has-text-right">
                      {formatCedis(o.amount)}
                      <br />
                      <span className={`tag ${statusClass(o.displayStatus)}`}>{paymentStatusLabel(o.displayStatus)}</span>
                      {o.paymentStatus === 'SUCCESS' && !o.delivered ? (
                        <>
                          {' '}
                          <DeliveryBadge status={o.deliveryStatus} />
                        </>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </div>
      </div>
    </section>
  )
}
