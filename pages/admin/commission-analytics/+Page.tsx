import { useCallback, useRef, useState } from 'react'
import { api } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { AgentCell } from '../_insight/AgentCell.tsx'
import { ArchiveModal } from '../_insight/ArchiveModal.tsx'
import { DateRange } from '../_insight/DateRange.tsx'
import { formatCedis, formatDateTime, networkLabel, paymentStatusLabel, query } from '../_insight/format.ts'
import { Pager } from '../../../renderer/ui/Pager.tsx'
import { StatCard } from '../_insight/StatCard.tsx'
import '../_insight/insight.css'
import type { AnalyticsData } from './+data.ts'
import { ExportMenu } from './ExportMenu.tsx'
import { useReloadEffect } from '../../../renderer/ui/useReloadEffect.ts'
import { SelectField } from '../../../renderer/ui/SelectField.tsx'

const GROUPS = [
  ['day', 'Day'],
  ['week', 'Week'],
  ['month', 'Month'],
  ['agent', 'Agent'],
  ['network', 'Network']
] as const
const SCOPES = [
  ['all', 'Current and archived'],
  ['current', 'Current only'],
  ['archived', 'Archived only']
] as const
type D = AnalyticsData

export default function Page() {
  const initial = (usePageContext() as unknown as { data?: D | null }).data ?? null
  const toast = useToast()
  const [filters, setFilters] = useState({ startDate: '', endDate: '', groupBy: 'day', scope: 'all' })
  const [summary, setSummary] = useState(initial?.summary ?? null)
  const [analytics, setAnalytics] = useState(initial?.analytics ?? null)
  const [leaderboard, setLeaderboard] = useState(initial?.leaderboard ?? null)
  const [networks, setNetworks] = useState(initial?.networks ?? null)
  const [archived, setArchived] = useState(initial?.archived ?? null)
  const [archivedPage, setArchivedPage] = useState(1)
  const [loading, setLoading] = useState(!initial)
  const [archiving, setArchiving] = useState(false)
  const [modal, setModal] = useState(false)
  const seq = useRef(0)

  const loadSummary = useCallback(
    () =>
      api<D['summary']>('/api/commission-analytics/summary')
        .then(setSummary)
        .catch(() => toast('Failed to load summary', 'error')),
    [toast]
  )

  const loadFiltered = useCallback(async () => {
    const mine = ++seq.current
    setLoading(true)
    const range = { startDate: filters.startDate, endDate: filters.endDate }
    const ok =
      <T,>(set: (v: T) => void) =>
      (v: T) =>
        mine === seq.current && set(v)
    await Promise.all([
      api<D['analytics']>(`/api/commission-analytics/analytics?${query(filters)}`)
        .then(ok(setAnalytics))
        .catch(() => toast('Failed to load analytics', 'error')),
      api<D['leaderboard']>(`/api/commission-analytics/agent-leaderboard?${query({ limit: 5, ...range })}`)
        .then(ok(setLeaderboard))
        .catch(() => toast('Failed to load agent leaderboard', 'error')),
      api<D['networks']>(`/api/commission-analytics/network-analytics?${query(range)}`)
        .then(ok(setNetworks))
        .catch(() => toast('Failed to load network analytics', 'error'))
    ])
    if (mine === seq.current) setLoading(false)
  }, [filters, toast])

  const loadArchived = useCallback(
    () =>
      api<D['archived']>(`/api/commission-analytics/archived?page=${archivedPage}&limit=20`)
        .then(setArchived)
        .catch(() => toast('Failed to load archived commissions', 'error')),
    [archivedPage, toast]
  )

  useReloadEffect(() => loadFiltered(), [loadFiltered], !!initial)

  useReloadEffect(() => loadArchived(), [loadArchived], !!initial)

  async function archiveAll(notes: string) {
    setArchiving(true)
    try {
      const res = await api<{ message: string }>('/api/commission-analytics/archive-all', { body: { notes } })
      toast(res.message, 'success')
      setModal(false)
      setArchivedPage(1)
      await Promise.all([loadSummary(), loadArchived(), loadFiltered()])
    } catch {
      toast('Failed to archive all commissions', 'error')
    } finally {
      setArchiving(false)
    }
  }
  const closeModal = useCallback(() => setModal(false), [])

  const groups = analytics?.groupByData ?? []
  const maxCommission = Math.max(0, ...groups.map((g) => g.totalCommission))
  const groupLabel = GROUPS.find(([v]) => v === filters.groupBy)?.[1] ?? 'Day'

  return (
    <section>
      <div className="level">
        <div className="level-left">
          <div>
            <h1 className="title">Commission Analytics</h1>
            <p className="subtitle is-6">Current and archived commissions, by period, agent and network</p>
          </div>
        </div>
        <div className="level-right">
          <div className="buttons">
            <button className="button is-warning" onClick={() => setModal(true)} disabled={archiving || !summary?.current.totalCount}>
              Archive All
            </button>
            <ExportMenu filters={filters} />
          </div>
        </div>
      </div>

      <div className="columns is-multiline">
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard
            testId="current"
            label="Current"
            value={summary ? formatCedis(summary.current.totalAmount) : '…'}
            hint={summary ? `${summary.current.totalCount.toLocaleString('en-GH')} commissions` : undefined}
          />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard
            testId="archived"
            label="Archived"
            value={summary ? formatCedis(summary.archived.totalAmount) : '…'}
            hint={summary ? `${summary.archived.totalCount.toLocaleString('en-GH')} commissions` : undefined}
          />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard
            testId="total"
            label="Total"
            value={summary ? formatCedis(summary.combined.totalAmount) : '…'}
            hint={summary ? `${summary.combined.totalCount.toLocaleString('en-GH')} commissions` : undefined}
          />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="average" label="Avg Commission" value={summary ? formatCedis(summary.averageCommission) : '…'} hint="Per paid order" />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard
            testId="parent-margins"
            label="Parent Margins"
            value={summary ? formatCedis(summary.parentMargins.totalAmount) : '…'}
            hint={summary ? `${summary.parentMargins.totalCount.toLocaleString('en-GH')} sub-agent orders, paid to their parents, not commission` : undefined}
          />
        </div>
      </div>

      <form className="box" aria-label="Analytics filters" onSubmit={(e) => e.preventDefault()}>
        <div className="columns is-mobile is-multiline">
          <DateRange idPrefix="analytics" startDate={filters.startDate} endDate={filters.endDate} onChange={(r) => setFilters((f) => ({ ...f, ...r }))} />
          <div className="column is-half-mobile">
            <SelectField
              id="analytics-group"
              label="Group By"
              value={filters.groupBy}
              onChange={(v) => setFilters((f) => ({ ...f, groupBy: v }))}
              options={GROUPS.map(([value, label]) => ({ value, label }))}
            />
          </div>
          <div className="column is-half-mobile">
            <SelectField
              id="analytics-scope"
              label="Commissions"
              value={filters.scope}
              onChange={(v) => setFilters((f) => ({ ...f, scope: v }))}
              options={SCOPES.map(([value, label]) => ({ value, label }))}
            />
          </div>
        </div>
      </form>

      <div className="box">
        <h2 className="title is-5">Commission by {groupLabel}</h2>
        {analytics ? (
          <p className="is-size-7 mb-3" data-testid="analytics-totals">
            {analytics.totalStats.totalOrders.toLocaleString('en-GH')} orders · revenue {formatCedis(analytics.totalStats.totalRevenue)} · commission{' '}
            {formatCedis(analytics.totalStats.totalCommission)} · average {formatCedis(analytics.totalStats.averageCommission)} · parent margins{' '}
            {formatCedis(analytics.totalStats.totalParentMargin)}
          </p>
        ) : null}
        <div className="table-container">
          <table className="table is-fullwidth is-narrow insight-table" aria-busy={loading}>
            <thead>
              <tr>
                <th>{groupLabel}</th>
                <th className="has-text-right">Orders</th>
                <th className="has-text-right">Revenue</th>
                <th className="has-text-right">Commission</th>
                <th className="is-hidden-mobile">Share</th>
              </tr>
            </thead>
            <tbody>
              {groups.length === 0 ? (
                <tr>
                  <td colSpan={5} className="has-text-centered has-text-grey py-4">
                    {loading ? 'Loading analytics…' : 'No commissions for these filters.'}
                  </td>
                </tr>
              ) : (
                groups.map((g) => (
                  <tr key={g.key} className={loading ? 'is-loading-row' : undefined}>
                    <td>{filters.groupBy === 'network' ? networkLabel(g.label) : g.label}</td>
                    <td className="has-text-right">{g.totalOrders.toLocaleString('en-GH')}</td>
                    <td className="has-text-right">{formatCedis(g.totalRevenue)}</td>
                    <td className="has-text-right">
                      <strong>{formatCedis(g.totalCommission)}</strong>
                    </td>
                    <td className="is-hidden-mobile">
                      <progress
                        className="progress is-small is-primary mb-0"
                        value={g.totalCommission}
                        max={maxCommission || 1}
                        aria-label={`${g.label} share`}
                      />
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>

      <div className="columns">
        <div className="column">
          <div className="box">
            <h2 className="title is-5">Top Agents</h2>
            {!leaderboard?.leaderboard.length ? (
              <p className="has-text-grey">{loading ? 'Loading…' : 'No agent sales yet.'}</p>
            ) : (
              <ol className="ml-5">
                {leaderboard.leaderboard.slice(0, 5).map((e) => (
                  <li key={e.agentId} className="mb-2">
                    <strong>{e.agentName}</strong> <span className="is-size-7 has-text-grey">{e.agentPhone}</span>
                    <br />
                    <span className="is-size-7">
                      {formatCedis(e.totalRevenue)} revenue · {e.totalOrders} orders · {formatCedis(e.totalCommission)} commission
                    </span>
                  </li>
                ))}
              </ol>
            )}
            <a href="/admin/agent-performance" className="is-size-7">
              Full agent performance
            </a>
          </div>
        </div>
        <div className="column">
          <div className="box">
            <h2 className="title is-5">Network Performance</h2>
            <div className="table-container">
              <table className="table is-fullwidth is-narrow">
                <thead>
                  <tr>
                    <th>Network</th>
                    <th className="has-text-right">Orders</th>
                    <th className="has-text-right">Revenue</th>
                    <th className="has-text-right">Commission</th>
                  </tr>
                </thead>
                <tbody>
                  {(networks?.networks ?? []).slice(0, 5).map((n) => (
                    <tr key={n.network}>
                      <td>{networkLabel(n.network)}</td>
                      <td className="has-text-right">{n.totalOrders.toLocaleString('en-GH')}</td>
                      <td className="has-text-right">{formatCedis(n.totalRevenue)}</td>
                      <td className="has-text-right">{formatCedis(n.totalCommission)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        </div>
      </div>

      <div className="box" id="archived">
        <h2 className="title is-5">Archived Commissions</h2>
        <p className="is-size-7 mb-2">
          {archived
            ? `${archived.total.toLocaleString('en-GH')} archived${archived.totalPages > 1 ? ` · Page ${archived.page} of ${archived.totalPages}` : ''}`
            : ''}
        </p>
        <div className="table-container">
          <table className="table is-fullwidth is-striped is-narrow insight-table" data-testid="archived-table">
            <thead>
              <tr>
                <th>Archived At</th>
                <th>Agent</th>
                <th>Network</th>
                <th className="has-text-right">Commission</th>
                <th>Status</th>
                <th>Notes</th>
              </tr>
            </thead>
            <tbody>
              {!archived?.commissions.length ? (
                <tr>
                  <td colSpan={6} className="has-text-centered has-text-grey py-4">
                    No archived commissions yet.
                  </td>
                </tr>
              ) : (
                archived.commissions.map((c) => (
                  <tr key={c.id} data-commission-id={c.id}>
                    <td className="nowrap">{formatDateTime(c.archivedAt)}</td>
                    <td>
                      <AgentCell c={c} />
                    </td>
                    <td>{networkLabel(c.network)}</td>
                    <td className="has-text-right">{formatCedis(c.commissionAmount)}</td>
                    <td>
                      <span className={`tag ${c.paymentStatus === 'PAID' ? 'is-success' : c.paymentStatus === 'PENDING' ? 'is-warning' : ''}`}>
                        {paymentStatusLabel(c.paymentStatus)}
                      </span>
                    </td>
                    <td>{c.archiveNotes ?? '-'}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        {archived ? <Pager label="Archived commission pages" page={archived.page} totalPages={archived.totalPages} onPage={setArchivedPage} /> : null}
      </div>

      {modal ? (
        <ArchiveModal
          title="Archive All Commissions"
          message={`Archive all ${summary?.current.totalCount ?? 0} current commissions (${formatCedis(summary?.current.totalAmount ?? 0)})? They move to the archive.`}
          confirmLabel="Archive All"
          busy={archiving}
          onConfirm={archiveAll}
          onCancel={closeModal}
        />
      ) : null}
    </section>
  )
}
