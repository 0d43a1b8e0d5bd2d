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
import type { CommissionsData } from './+data.ts'
import { useReloadEffect } from '../../../renderer/ui/useReloadEffect.ts'

const LIMIT = 20
type Summary = NonNullable<CommissionsData['summary']>
type List = NonNullable<CommissionsData['list']>

export default function Page() {
  const initial = (usePageContext() as unknown as { data?: CommissionsData }).data
  const toast = useToast()
  const [range, setRange] = useState({ startDate: '', endDate: '' })
  const [page, setPage] = useState(1)
  const [summary, setSummary] = useState<Summary | null>(initial?.summary ?? null)
  const [list, setList] = useState<List | null>(initial?.list ?? null)
  const [loading, setLoading] = useState(!initial?.list)
  const [selected, setSelected] = useState<Set<number>>(new Set())
  const [modal, setModal] = useState<'selected' | 'all' | null>(null)
  const [busy, setBusy] = useState(false)
  const seq = useRef(0)

  const load = useCallback(async () => {
    const mine = ++seq.current
    setLoading(true)
    const q = query(range)
    await Promise.all([
      api<Summary>(`/api/commissions/summary?${q}`)
        .then((s) => mine === seq.current && setSummary(s))
        .catch(() => mine === seq.current && toast('Failed to load commission summary', 'error')),
      api<List>(`/api/commissions?${query({ page, limit: LIMIT, ...range })}`)
        .then((l) => mine === seq.current && setList(l))
        .catch(() => mine === seq.current && toast('Failed to load commissions', 'error'))
    ])
    if (mine === seq.current) setLoading(false)
  }, [range, page, toast])

  useReloadEffect(() => load(), [load], !!initial?.list)

  const rows = list?.commissions ?? []
  const allOnPage = rows.length > 0 && rows.every((c) => selected.has(c.id))
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const togglePage = () =>
    setSelected((s) => {
      const next = new Set(s)
      for (const c of rows) {
        if (allOnPage) next.delete(c.id)
        else next.add(c.id)
      }
      return next
    })

  function askSelected() {
    if (selected.size === 0) {
      toast('Please select commissions to archive', 'error')
      return
    }
    setModal('selected')
  }

  async function archive(notes: string) {
    setBusy(true)
    const all = modal === 'all'
    try {
      const res = await api<{ archivedCount: number; message: string }>(all ? '/api/commission-analytics/archive-all' : '/api/commission-analytics/archive', {
        body: all ? { notes } : { commissionIds: [...selected], notes }
      })
      toast(res.message, 'success')
      setSelected(new Set())
      setModal(null)
      if (page !== 1) setPage(1)
      else await load()
    } catch {
      toast(all ? 'Failed to archive all commissions' : 'Failed to archive commissions', 'error')
    } finally {
      setBusy(false)
    }
  }

  const closeModal = useCallback(() => setModal(null), [])

  return (
    <section>
      <div className="level">
        <div className="level-left">
          <div>
            <h1 className="title">Commissions</h1>
            <p className="subtitle is-6">
              Current commissions on paid orders; archived ones move to <a href="/admin/commission-analytics#archived">Commission Analytics</a>
            </p>
          </div>
        </div>
        <div className="level-right">
          <div className="buttons">
            <button className="button is-warning is-light" onClick={askSelected} disabled={busy}>
              Archive Selected{selected.size ? ` (${selected.size})` : ''}
            </button>
            <button className="button is-warning" onClick={() => setModal('all')} disabled={busy}>
              Archive All
            </button>
          </div>
        </div>
      </div>

      <form className="box" aria-label="Commission filters" onSubmit={(e) => e.preventDefault()}>
        <div className="columns is-mobile is-multiline is-vcentered">
          <DateRange
            idPrefix="commissions"
            startDate={range.startDate}
            endDate={range.endDate}
            onChange={(r) => {
              setRange(r)
              setPage(1)
            }}
          />
          <div className="column is-narrow">
            <button
              type="button"
              className="button is-small mt-5"
              disabled={!range.startDate && !range.endDate}
              onClick={() => {
                setRange({ startDate: '', endDate: '' })
                setPage(1)
              }}>
              Clear Filters
            </button>
          </div>
        </div>
      </form>

      <div className="columns is-multiline">
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="total" label="Total Commission" value={summary ? formatCedis(summary.totalCommission) : '…'} hint="Current, not archived" />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="count" label="Commissions" value={summary ? summary.totalCount.toLocaleString('en-GH') : '…'} />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="revenue" label="Order Value" value={summary ? formatCedis(summary.totalRevenue) : '…'} />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard testId="average" label="Average Commission" value={summary ? formatCedis(summary.averageCommission) : '…'} />
        </div>
        <div className="column is-half-tablet is-one-quarter-desktop">
          <StatCard
            testId="parent-margins"
            label="Parent Margins"
            value={summary ? formatCedis(summary.totalParentMargin) : '…'}
            hint="Paid to agents on their sub-agents' orders, not commission"
          />
        </div>
      </div>

      <h2 className="title is-5">Commission History</h2>
      <p className="is-size-7 mb-2" aria-live="polite">
        {list ? `${list.total.toLocaleString('en-GH')} current commissions${list.totalPages > 1 ? ` · Page ${list.page} of ${list.totalPages}` : ''}` : ''}
        {selected.size ? ` · ${selected.size} selected` : ''}
      </p>
      <div className="table-container">
        <table className="table is-stacked-mobile is-fullwidth is-striped is-hoverable is-narrow insight-table" aria-busy={loading}>
          <thead>
            <tr>
              <th>
                <label className="checkbox">
                  <input type="checkbox" checked={allOnPage} onChange={togglePage} aria-label="Select all on this page" disabled={!rows.length} />
                </label>
              </th>
              <th>Date</th>
              <th>Agent</th>
              <th>Network</th>
              <th className="has-text-right">Order Amount</th>
              <th className="has-text-right">Commission</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {loading && !rows.length ? (
              <tr>
                <td colSpan={7}>
                  <span className="dh-skeleton-line" />
                </td>
              </tr>
            ) : null}
            {!loading && !rows.length ? (
              <tr>
                <td colSpan={7} className="has-text-centered has-text-grey py-5">
                  {range.startDate || range.endDate
                    ? 'No commissions in this date range.'
                    : 'No current commissions. New ones appear here when orders are paid.'}
                </td>
              </tr>
            ) : null}
            {rows.map((c) => (
              <tr key={c.id} data-commission-id={c.id} className={loading ? 'is-loading-row' : undefined}>
                <td data-label="Select">
                  <label className="checkbox">
                    <input type="checkbox" checked={selected.has(c.id)} onChange={() => toggle(c.id)} aria-label={`Select commission ${c.id}`} />
                  </label>
                </td>
                <td data-label="Date" className="nowrap">
                  {formatDateTime(c.createdAt)}
                </td>
                <td data-label="Agent">
                  <AgentCell c={c} />
                </td>
                <td data-label="Network">{networkLabel(c.network)}</td>
                <td data-label="Order Amount" className="has-text-right">
                  {formatCedis(c.originalAmount)}
                </td>
                <td data-label="Commission" className="has-text-right">
                  <strong>{formatCedis(c.commissionAmount)}</strong>
                </td>
                <td data-label="Status">
                  <span className={`tag ${c.paymentStatus === 'PAID' ? 'is-success' : c.paymentStatus === 'PENDING' ? 'is-warning' : ''}`}>
                    {paymentStatusLabel(c.paymentStatus)}
                  </span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list ? <Pager label="Commission pages" page={list.page} totalPages={list.totalPages} onPage={setPage} disabled={loading} /> : null}

      {modal ? (
        <ArchiveModal
          title={modal === 'all' ? 'Archive All Commissions' : 'Archive Selected Commissions'}
          message={
            modal === 'all'
              ? `Archive all current commissions${range.startDate || range.endDate ? ' of every date (not only the filtered range)' : ` (${list?.total ?? 0})`}? They move to the archive and leave this list.`
              : `Archive ${selected.size} selected commission${selected.size === 1 ? '' : 's'}? They move to the archive and leave this list.`
          }
          confirmLabel={modal === 'all' ? 'Archive All' : 'Archive'}
          busy={busy}
          onConfirm={archive}
          onCancel={closeModal}
        />
      ) : null}
    </section>
  )
}
