import { useCallback, useEffect, useRef, useState } from 'react'
import { api, download } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import type { AuditLogView } from '../../../server/services/audit/logs.ts'
import { DateRange } from '../_insight/DateRange.tsx'
import { formatDateTime, query, todayIso } from '../_insight/format.ts'
import { Pager } from '../../../renderer/ui/Pager.tsx'
import '../_insight/insight.css'
import type { AuditLogsData } from './+data.ts'
import { DetailsModal } from './DetailsModal.tsx'
import { useReloadEffect } from '../../../renderer/ui/useReloadEffect.ts'
import { SelectField } from '../../../renderer/ui/SelectField.tsx'

const RESOURCES = ['USER', 'AGENT', 'ORDER', 'PAYMENT', 'SETTINGS', 'SYSTEM']
const SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL']
const SEVERITY_TAG: Record<string, string> = { LOW: 'is-info is-light', MEDIUM: 'is-warning', HIGH: 'is-danger is-light', CRITICAL: 'is-danger' }
const EMPTY = { userId: '', action: '', resource: '', severity: '', startDate: '', endDate: '' }
type Filters = typeof EMPTY

function SkeletonRows() {
  return (
    <>
      {Array.from({ length: 5 }, (_, i) => (
        <tr key={i} aria-hidden="true">
          {Array.from({ length: 7 }, (_, j) => (
            <td key={j}>
              <span className="dh-skeleton-line" />
            </td>
          ))}
        </tr>
      ))}
    </>
  )
}

export default function Page() {
  const initial = (usePageContext() as unknown as { data?: AuditLogsData }).data
  const toast = useToast()
  const [filters, setFilters] = useState<Filters>(EMPTY)
  // The User ID box waits for typing to pause before it reloads.
  const [userIdDraft, setUserIdDraft] = useState('')
  const [limit, setLimit] = useState(50)
  const [page, setPage] = useState(1)
  const [logs, setLogs] = useState<AuditLogView[]>(initial?.logs ?? [])
  const [pagination, setPagination] = useState(initial?.pagination ?? null)
  const [loading, setLoading] = useState(!initial?.pagination)
  const [exporting, setExporting] = useState<'csv' | 'json' | null>(null)
  const [open, setOpen] = useState<AuditLogView | null>(null)
  const closeDetails = useCallback(() => setOpen(null), [])
  const seq = useRef(0)

  const load = useCallback(async () => {
    const mine = ++seq.current
    setLoading(true)
    try {
      const res = await api<{ logs: AuditLogView[]; pagination: NonNullable<AuditLogsData['pagination']> }>(
        `/api/admin/audit-logs?${query({ page, limit, ...filters })}`
      )
      if (mine !== seq.current) return
      setLogs(res.logs)
      setPagination(res.pagination)
    } catch {
      if (mine === seq.current) toast('Failed to load audit logs', 'error')
    } finally {
      if (mine === seq.current) setLoading(false)
    }
  }, [page, limit, filters, toast])

  useReloadEffect(() => load(), [load], !!initial?.pagination)

  useEffect(() => {
    if (userIdDraft === filters.userId) return
    const t = setTimeout(() => change({ userId: userIdDraft }), 400)
    return () => clearTimeout(t)
  }, [userIdDraft])

  /** Any filter change starts again from page 1. */
  function change(patch: Partial<Filters>) {
    setFilters((f) => ({ ...f, ...patch }))
    setPage(1)
  }

  function clear() {
    setUserIdDraft('')
    setFilters(EMPTY)
    setPage(1)
  }

  async function exportAs(format: 'csv' | 'json') {
    setExporting(format)
    try {
      const active = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== ''))
      await download('/api/admin/audit-logs/export', { method: 'POST', body: { filters: active, format }, filename: `audit_logs_${todayIso()}.${format}` })
      toast(`Audit logs exported as ${format.toUpperCase()}`, 'success')
    } catch {
      toast('Failed to export audit logs', 'error')
    } finally {
      setExporting(null)
    }
  }

  const actions = initial?.actions?.length
    ? initial.actions
    : ['LOGIN', 'LOGOUT', 'USER_CREATED', 'ORDER_CREATED', 'PAYMENT_SUCCESS', 'PAYMENT_FAILED', 'AGENT_APPROVED', 'SETTINGS_UPDATED']
  const hasFilters = Object.values(filters).some((v) => v !== '') || userIdDraft !== ''
  const from = pagination && pagination.total ? (pagination.page - 1) * pagination.limit + 1 : 0
  const to = pagination ? Math.min(pagination.page * pagination.limit, pagination.total) : 0

  return (
    <section>
      <div className="level">
        <div className="level-left">
          <div>
            <h1 className="title">Audit Logs</h1>
            <p className="subtitle is-6">Who did what, when and from where</p>
          </div>
        </div>
        <div className="level-right">
          <div className="buttons">
            <button className={`button is-small${exporting === 'csv' ? ' is-loading' : ''}`} disabled={!!exporting} onClick={() => exportAs('csv')}>
              Export CSV
            </button>
            <button className={`button is-small${exporting === 'json' ? ' is-loading' : ''}`} disabled={!!exporting} onClick={() => exportAs('json')}>
              Export JSON
            </button>
          </div>
        </div>
      </div>

      <form className="box" aria-label="Audit log filters" onSubmit={(e) => e.preventDefault()}>
        <div className="columns is-multiline is-mobile">
          <div className="column is-half-mobile is-2-desktop">
            <div className="field">
              <label className="label is-small" htmlFor="audit-user">
                User ID
              </label>
              <div className="control">
                <input
                  id="audit-user"
                  className="input is-small"
                  type="number"
                  min={1}
                  inputMode="numeric"
                  value={userIdDraft}
                  placeholder="Any"
                  onChange={(e) => setUserIdDraft(e.target.value.replace(/\D/g, ''))}
                />
              </div>
            </div>
          </div>
          <div className="column is-half-mobile is-2-desktop">
            <SelectField
              id="audit-action"
              label="Action"
              value={filters.action}
              onChange={(v) => change({ action: v })}
              options={[{ value: '', label: 'All Actions' }, ...actions]}
            />
          </div>
          <div className="column is-half-mobile is-2-desktop">
            <SelectField
              id="audit-resource"
              label="Resource"
              value={filters.resource}
              onChange={(v) => change({ resource: v })}
              options={[{ value: '', label: 'All Resources' }, ...RESOURCES]}
            />
          </div>
          <div className="column is-half-mobile is-2-desktop">
            <SelectField
              id="audit-severity"
              label="Severity"
              value={filters.severity}
              onChange={(v) => change({ severity: v })}
              options={[{ value: '', label: 'All Severities' }, ...SEVERITIES]}
            />
          </div>
          <DateRange idPrefix="audit" startDate={filters.startDate} endDate={filters.endDate} onChange={(r) => change(r)} />
        </div>
        <div className="level is-mobile">
          <div className="level-left">
            <button type="button" className="button is-small" onClick={clear} disabled={!hasFilters}>
              Clear Filters
            </button>
          </div>
          <div className="level-right">
            <div className="field is-horizontal">
              <label className="label is-small mr-2 mb-0" htmlFor="audit-limit">
                Per page
              </label>
              <div className="select is-small">
                <select
                  id="audit-limit"
                  value={limit}
                  onChange={(e) => {
                    setLimit(Number(e.target.value))
                    setPage(1)
                  }}>
                  {[20, 50, 100].map((n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </div>
            </div>
          </div>
        </div>
      </form>

      <p className="is-size-7 mb-2" aria-live="polite">
        {pagination ? `Showing ${from} to ${to} of ${pagination.estimated ? 'about ' : ''}${pagination.total.toLocaleString('en-GH')} entries` : ''}
        {pagination && pagination.totalPages > 1 ? ` · Page ${pagination.page} of ${pagination.totalPages}` : ''}
      </p>

      <div className="table-container">
        <table className="table is-stacked-mobile is-fullwidth is-striped is-hoverable is-narrow insight-table" aria-busy={loading}>
          <thead>
            <tr>
              <th>Timestamp</th>
              <th>User</th>
              <th>Action</th>
              <th>Resource</th>
              <th>Severity</th>
              <th>IP Address</th>
              <th>Details</th>
            </tr>
          </thead>
          <tbody>
            {loading && logs.length === 0 ? <SkeletonRows /> : null}
            {!loading && logs.length === 0 ? (
              <tr>
                <td colSpan={7} className="has-text-centered has-text-grey py-5">
                  {hasFilters ? 'No audit logs match the current filters.' : 'No audit logs yet.'}
                </td>
              </tr>
            ) : null}
            {logs.map((l) => (
              <tr key={l.id} data-log-id={l.id} className={loading ? 'is-loading-row' : undefined}>
                <td data-label="Timestamp" className="nowrap">
                  {formatDateTime(l.timestamp)}
                </td>
                <td data-label="User">
                  {l.user ? (
                    <>
                      <span>{l.user.email}</span>
                      <br />
                      <span className="tag is-small">{l.user.role}</span>
                    </>
                  ) : (
                    <span className="has-text-grey">Unknown</span>
                  )}
                </td>
                <td data-label="Action">
                  <code>{l.action}</code>
                </td>
                <td data-label="Resource">
                  {l.resource}
                  {l.resourceId ? (
                    <span className="has-text-grey" title={l.resourceId}>
                      {' '}
                      #{l.resourceId.slice(0, 8)}
                    </span>
                  ) : null}
                </td>
                <td data-label="Severity">
                  <span className={`tag ${SEVERITY_TAG[l.severity] ?? ''}`}>{l.severity}</span>
                </td>
                <td data-label="IP Address" className="nowrap">
                  {l.ipAddress ?? '-'}
                </td>
                <td data-label="Details">
                  <button
                    className="button is-small is-link is-light"
                    onClick={() => setOpen(l)}
                    aria-label={`View details of ${l.action} at ${formatDateTime(l.timestamp)}`}>
                    View
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {pagination ? <Pager label="Audit log pages" page={pagination.page} totalPages={pagination.totalPages} onPage={setPage} disabled={loading} /> : null}
      {open ? <DetailsModal log={open} onClose={closeDetails} /> : null}
    </section>
  )
}
