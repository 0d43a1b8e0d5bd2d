import { useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { countText, formatCedis, NETWORK_LABEL } from '../_ops/format.ts'
import '../_ops/ops.css'
import type { Analytics, OverviewData, Stats } from './+data.ts'
import { Charts } from './Charts.tsx'
import { DeliveryPanel } from './DeliveryPanel.tsx'
import { SalesTables } from './SalesTables.tsx'

const RANGES = [
  { value: 'today', label: 'Today' },
  { value: '7d', label: '7 days' },
  { value: '30d', label: '30 days' }
] as const

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="column is-6-mobile is-4-tablet is-3-widescreen">
      <div className="box ops-stat" style={{ height: '100%' }}>
        <p className="heading">{label}</p>
        <p className="stat-value">{value}</p>
        {note ? <p className="is-size-7 has-text-grey">{note}</p> : null}
      </div>
    </div>
  )
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <tr>
      <th scope="row" className="has-text-weight-normal">
        {label}
      </th>
      <td className="has-text-right has-text-weight-semibold">{value}</td>
    </tr>
  )
}

export default function Page() {
  const initial = (usePageContext() as unknown as { data?: OverviewData }).data
  const toast = useToast()
  const [range, setRange] = useState<string>('7d')
  const [stats, setStats] = useState<Stats | null>(initial?.stats ?? null)
  const [analytics, setAnalytics] = useState<Analytics | null>(initial?.analytics ?? null)
  const [loading, setLoading] = useState(false)

  async function pick(next: string) {
    setRange(next)
    setLoading(true)
    try {
      const [s, a] = await Promise.all([api<Stats>('/api/admin/stats'), api<Analytics>(`/api/admin/analytics?range=${next}`)])
      setStats(s)
      setAnalytics(a)
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Failed to load analytics', 'error')
    } finally {
      setLoading(false)
    }
  }

  const rangeLabel = RANGES.find((r) => r.value === range)!.label.toLowerCase()
  return (
    <section className="ops-page">
      <div className="level is-mobile mb-4" style={{ flexWrap: 'wrap', gap: '.5rem' }}>
        <div className="level-left">
          <h1 className="title is-4">Overview</h1>
        </div>
        <div className="level-right">
          <div className="buttons has-addons mb-0" role="group" aria-label="Range">
            {RANGES.map((r) => (
              <button
                key={r.value}
                className={`button is-small${range === r.value ? ' is-primary is-selected' : ''}${loading && range === r.value ? ' is-loading' : ''}`}
                aria-pressed={range === r.value}
                onClick={() => pick(r.value)}>
                {r.label}
              </button>
            ))}
          </div>
        </div>
      </div>

      {initial?.attentionCount ? (
        <div className="notification is-warning is-light" data-testid="attention-banner">
          <a href="/admin/payments">
            {initial.attentionCount} payment{initial.attentionCount === 1 ? ' needs' : 's need'} attention
          </a>
        </div>
      ) : null}

      {!stats || !analytics ? (
        <div className="notification is-warning">Statistics are not available right now.</div>
      ) : (
        <>
          <div className="columns is-multiline is-mobile" aria-busy={loading}>
            <Stat label="Total users" value={countText(stats.userCount)} />
            <Stat label="Registered agents" value={countText(stats.agentCount)} />
            <Stat label="Total orders" value={countText(analytics.totalOrders)} note={`${rangeLabel}; ${countText(stats.orderCount)} all time`} />
            <Stat label="Pending orders" value={countText(analytics.pendingCount)} note={rangeLabel} />
            <Stat label="Success rate" value={`${analytics.successRate.toFixed(1)}%`} note={rangeLabel} />
            <Stat label="Data revenue (GHS)" value={formatCedis(analytics.totalRevenue)} note={rangeLabel} />
            <Stat label="Agent revenue (GHS)" value={formatCedis(stats.totalAgentRevenue)} note="registration fees, all time" />
            {initial?.walletLiability ? (
              <Stat
                label="Wallet liability (GHS)"
                value={formatCedis(initial.walletLiability.total)}
                note={`owed to agents in ${countText(initial.walletLiability.wallets)} wallets`}
              />
            ) : null}
          </div>

          <div className="columns">
            <div className="column">
              <div className="box" style={{ height: '100%' }}>
                <h2 className="title is-6">Data payment analytics</h2>
                <table className="table is-fullwidth is-narrow">
                  <tbody>
                    <Row label="Successful" value={countText(analytics.successCount)} />
                    <Row label="Failed" value={countText(analytics.failedCount)} />
                    <Row label="Expired" value={countText(analytics.expiredCount)} />
                    <Row label="Average order value" value={formatCedis(analytics.averageOrderValue)} />
                  </tbody>
                </table>
              </div>
            </div>
            <div className="column">
              <div className="box" style={{ height: '100%' }}>
                <h2 className="title is-6">Agent registration analytics</h2>
                <table className="table is-fullwidth is-narrow">
                  <tbody>
                    <Row label="Registration fee" value={formatCedis(stats.agentRegistrationFee)} />
                    <Row label="Successful registrations" value={countText(stats.successfulRegistrations)} />
                    <Row label="Pending registrations" value={countText(stats.pendingRegistrations)} />
                    <Row label="Failed registrations" value={countText(stats.failedRegistrations)} />
                  </tbody>
                </table>
              </div>
            </div>
          </div>

          <SalesTables analytics={analytics} rangeLabel={rangeLabel} />
          <DeliveryPanel />
          <Charts analytics={analytics} stats={stats} />

          <div className="box">
            <h2 className="title is-6">Network distribution</h2>
            <div className="columns is-mobile is-multiline">
              {Object.entries(analytics.networkBreakdown).map(([net, n]) => (
                <div key={net} className="column is-4 has-text-centered" data-network={net}>
                  <p className="heading">{NETWORK_LABEL[net] ?? net}</p>
                  <p className="stat-value">{countText(n)}</p>
                </div>
              ))}
            </div>
          </div>
        </>
      )}
    </section>
  )
}
