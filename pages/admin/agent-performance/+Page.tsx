import { useCallback, useRef, useState } from 'react'
import { api, download } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { DateRange } from '../_insight/DateRange.tsx'
import { formatCedis, NETWORK_LABEL, query, todayIso } from '../_insight/format.ts'
import { StatCard } from '../_insight/StatCard.tsx'
import '../_insight/insight.css'
import type { LeaderboardData } from './+data.ts'
import { useReloadEffect } from '../../../renderer/ui/useReloadEffect.ts'

const MEDAL_NAMES = ['Gold', 'Silver', 'Bronze']

/** Gold, silver and bronze discs with the rank (drawn in CSS: emoji fonts are not everywhere). */
function Medal({ rank }: { rank: number }) {
  return (
    <span className={`medal medal-${rank}`} role="img" aria-label={`${MEDAL_NAMES[rank - 1]} medal, rank ${rank}`} title={`${MEDAL_NAMES[rank - 1]} medal`}>
      {rank}
    </span>
  )
}
const TOP_N = [10, 20, 50, 100]

export default function Page() {
  const initial = (usePageContext() as unknown as { data?: LeaderboardData | null }).data ?? null
  const toast = useToast()
  const [filters, setFilters] = useState({ startDate: '', endDate: '', network: '', limit: '10' })
  const [data, setData] = useState<LeaderboardData | null>(initial)
  const [loading, setLoading] = useState(!initial)
  const [exporting, setExporting] = useState(false)
  const seq = useRef(0)

  const load = useCallback(async () => {
    const mine = ++seq.current
    setLoading(true)
    try {
      const res = await api<LeaderboardData>(`/api/commission-analytics/agent-leaderboard?${query(filters)}`)
      if (mine === seq.current) setData(res)
    } catch {
      if (mine === seq.current) toast('Failed to load agent leaderboard', 'error')
    } finally {
      if (mine === seq.current) setLoading(false)
    }
  }, [filters, toast])

  useReloadEffect(() => load(), [load], !!initial)

  async function exportCsv() {
    setExporting(true)
    try {
      await download(`/api/commission-analytics/export/leaderboard-csv?${query(filters)}`, { filename: `agent_performance_${todayIso()}.csv` })
      toast('Agent performance exported', 'success')
    } catch {
      toast('Failed to export agent performance', 'error')
    } finally {
      setExporting(false)
    }
  }

  const rows = data?.leaderboard ?? []
  const top = rows[0]?.totalRevenue ?? 0
  const s = data?.stats
  const set = (patch: Partial<typeof filters>) => setFilters((f) => ({ ...f, ...patch }))

  return (
    <section>
      <div className="level">
        <div className="level-left">
          <div>
            <h1 className="title">Agent Performance</h1>
            <p className="subtitle is-6">
              Agents ranked by revenue from their own paid orders (a sub-agent's sale counts under the sub-agent); parent margins are what they earned on their
              sub-agents' delivered orders
            </p>
          </div>
        </div>
        <div className="level-right">
          <button className={`button is-primary${exporting ? ' is-loading' : ''}`} onClick={exportCsv} disabled={exporting || !rows.length}>
            Export CSV
          </button>
        </div>
      </div>

      <form className="box" aria-label="Agent performance filters" onSubmit={(e) => e.preventDefault()}>
        <div className="columns is-mobile is-multiline">
          <DateRange idPrefix="performance" startDate={filters.startDate} endDate={filters.endDate} onChange={(r) => set(r)} />
          <div className="column is-half-mobile">
            <div className="field">
              <label className="label is-small" htmlFor="performance-network">
                Network
              </label>
              <div className="select is-small is-fullwidth">
                <select id="performance-network" value={filters.network} onChange={(e) => set({ network: e.target.value })}>
                  <option value="">All Networks</option>
                  {Object.entries(NETWORK_LABEL).map(([v, l]) => (
                    <option key={v} value={v}>
                      {l}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          </div>
          <div className="column is-half-mobile">
            <div className="field">
              <label className="label is-small" htmlFor="performance-top">
                Top N
              </label>
              <div className="select is-small is-fullwidth">
                <select id="performance-top" value={filters.limit} onChange={(e) => set({ limit: e.target.value })}>
                  {TOP_N.map((n) => (
                    <option key={n} value={n}>
                      Top {n}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          </div>
        </div>
      </form>

      <div className="columns is-multiline">
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="agents" label="Selling Agents" value={data ? data.totalAgents.toLocaleString('en-GH') : '…'} />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="revenue" label="Total Revenue" value={s ? formatCedis(s.totalRevenue) : '…'} />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="orders" label="Total Orders" value={s ? s.totalOrders.toLocaleString('en-GH') : '…'} />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="commission" label="Total Commission" value={s ? formatCedis(s.totalCommission) : '…'} />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard
            testId="parent-margins"
            label="Parent Margins"
            value={s ? formatCedis(s.totalParentMargin) : '…'}
            hint="Earned on sub-agents' orders, not commission"
          />
        </div>
      </div>

      {rows.length ? (
        <div className="columns is-multiline" aria-label="Top 3 Performers">
          <div className="column is-full">
            <h2 className="title is-5 mb-0">Top 3 Performers</h2>
          </div>
          {rows.slice(0, 3).map((e, i) => (
            <div className="column is-one-third-tablet" key={e.agentId}>
              <div className="box has-text-centered" data-performer={i + 1}>
                <Medal rank={i + 1} />
                <p className="title is-6 mt-2 mb-1">{e.agentName}</p>
                <p className="is-size-7 has-text-grey mb-2">
                  {e.agentPhone}
                  {e.tier ? ` · ${e.tier}` : ''}
                </p>
                <p className="stat-value">{formatCedis(e.totalRevenue)}</p>
                <p className="is-size-7">
                  {e.totalOrders.toLocaleString('en-GH')} orders · {formatCedis(e.totalCommission)} commission
                </p>
              </div>
            </div>
          ))}
        </div>
      ) : null}

      <div className="box">
        <h2 className="title is-5">Leaderboard</h2>
        <div className="table-container">
          <table className="table is-fullwidth is-striped is-narrow insight-table" aria-busy={loading} data-testid="leaderboard">
            <thead>
              <tr>
                <th>Rank</th>
                <th>Agent</th>
                <th>Tier</th>
                <th className="has-text-right">Orders</th>
                <th>Revenue</th>
                <th className="has-text-right">Commission</th>
                <th className="has-text-right">Parent margins</th>
              </tr>
            </thead>
            <tbody>
              {!rows.length ? (
                <tr>
                  <td colSpan={7} className="has-text-centered has-text-grey py-5">
                    {loading ? 'Loading agents…' : 'No agent sales for these filters.'}
                  </td>
                </tr>
              ) : (
                rows.map((e) => (
                  <tr key={e.agentId} className={loading ? 'is-loading-row' : undefined}>
                    <td>{e.rank <= 3 ? <Medal rank={e.rank} /> : `#${e.rank}`}</td>
                    <td>
                      <strong>{e.agentName}</strong>
                      <br />
                      <span className="is-size-7 has-text-grey">{e.agentPhone}</span>
                    </td>
                    <td>{e.tier ? <span className="tag is-light">{e.tier}</span> : '-'}</td>
                    <td className="has-text-right">{e.totalOrders.toLocaleString('en-GH')}</td>
                    <td>
                      <span>{formatCedis(e.totalRevenue)}</span>
                      <progress
                        className="progress is-small is-primary mb-0 mt-1"
                        value={e.totalRevenue}
                        max={top || 1}
                        aria-label={`${e.agentName} revenue relative to the top agent`}
                      />
                    </td>
                    <td className="has-text-right">{formatCedis(e.totalCommission)}</td>
                    <td className="has-text-right">{formatCedis(e.parentMargin)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>

      <div className="box">
        <h2 className="title is-5">Statistics</h2>
        <p className="is-size-7 has-text-grey mb-3">
          Across all {data?.totalAgents ?? 0} selling agents for these filters, not only the top {filters.limit}.
        </p>
        <div className="columns is-multiline is-mobile">
          <div className="column is-half-mobile">
            <p className="stat-label">Highest Revenue</p>
            <p className="has-text-weight-bold" data-stat="highest">
              {s ? formatCedis(s.highestRevenue) : '-'}
            </p>
          </div>
          <div className="column is-half-mobile">
            <p className="stat-label">Lowest Revenue</p>
            <p className="has-text-weight-bold" data-stat="lowest">
              {s ? formatCedis(s.lowestRevenue) : '-'}
            </p>
          </div>
          <div className="column is-half-mobile">
            <p className="stat-label">Average Revenue</p>
            <p className="has-text-weight-bold" data-stat="average">
              {s ? formatCedis(s.averageRevenue) : '-'}
            </p>
          </div>
          <div className="column is-half-mobile">
            <p className="stat-label">Most Orders</p>
            <p className="has-text-weight-bold" data-stat="most-orders">
              {s ? s.mostOrders.toLocaleString('en-GH') : '-'}
            </p>
          </div>
          <div className="column is-half-mobile">
            <p className="stat-label">Total Revenue</p>
            <p className="has-text-weight-bold" data-stat="total">
              {s ? formatCedis(s.totalRevenue) : '-'}
            </p>
          </div>
        </div>
      </div>
    </section>
  )
}
