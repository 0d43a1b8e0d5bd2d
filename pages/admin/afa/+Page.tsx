import { useCallback, useEffect, useRef, useState } from 'react'
import type { AdminAfa } from '../../../server/services/afa/admin.ts'
import type { Pagination } from '../../../server/lib/lists.ts'
import { api, download } from '../../../renderer/api.ts'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { countText, formatDate, statusOf } from '../_ops/format.ts'
import '../_ops/ops.css'
import { Pager } from '../_ops/Pager.tsx'
import type { AfaData } from './+data.ts'
import { useReloadEffect } from '../../../renderer/ui/useReloadEffect.ts'

const LIMIT = 20

// Spec section 8: AFA load, mark-completed and export failures are logged only, with no user message.
const logOnly = (what: string) => (err: unknown) => console.error(what, err)

export default function Page() {
  const initial = (usePageContext() as unknown as { data?: AfaData }).data
  const [rows, setRows] = useState<AdminAfa[]>(initial?.registrations ?? [])
  const [pagination, setPagination] = useState<Pagination | null>(initial?.pagination ?? null)
  const [page, setPage] = useState(1)
  const [searchInput, setSearchInput] = useState('')
  const [search, setSearch] = useState('')
  const [loading, setLoading] = useState(!initial?.pagination)
  const [processing, setProcessing] = useState<Set<number>>(new Set())
  const [exporting, setExporting] = useState(false)
  const seq = useRef(0)

  const load = useCallback(async (p: number, q: string) => {
    const mine = ++seq.current
    setLoading(true)
    try {
      const params = new URLSearchParams({ page: String(p), limit: String(LIMIT) })
      if (q) params.set('search', q)
      const res = await api<{ registrations: AdminAfa[]; pagination: Pagination }>(`/api/afa?${params}`)
      if (mine !== seq.current) return
      setRows(res.registrations)
      setPagination(res.pagination)
    } catch (err) {
      logOnly('Failed to load AFA registrations')(err)
    } finally {
      if (mine === seq.current) setLoading(false)
    }
  }, [])

  useReloadEffect(() => load(page, search), [page, search, load], !!initial?.pagination)

  useEffect(() => {
    const q = searchInput.trim()
    if (q === search) return
    const t = setTimeout(() => {
      setSearch(q)
      setPage(1)
    }, 300)
    return () => clearTimeout(t)
  }, [searchInput, search])

  async function complete(r: AdminAfa) {
    setProcessing((s) => new Set(s).add(r.id))
    try {
      const res = await api<{ registration: AdminAfa }>(`/api/afa/${r.id}/completed`, { method: 'PATCH' })
      setRows((list) => list.map((x) => (x.id === r.id ? res.registration : x)))
    } catch (err) {
      logOnly('Failed to mark AFA registration completed')(err)
    } finally {
      setProcessing((s) => {
        const n = new Set(s)
        n.delete(r.id)
        return n
      })
    }
  }

  async function exportCsv() {
    setExporting(true)
    try {
      await download('/api/afa/export', { method: 'POST', filename: 'afa_registrations.csv' })
    } catch (err) {
      logOnly('Failed to export AFA registrations')(err)
    } finally {
      setExporting(false)
    }
  }

  const total = pagination?.total ?? 0
  return (
    <section className="ops-page">
      <div className="level is-mobile mb-3" style={{ flexWrap: 'wrap', gap: '.5rem' }}>
        <div className="level-left">
          <h1 className="title is-4">AFA Registrations</h1>
        </div>
        <div className="level-right">
          <button className={`button is-primary${exporting ? ' is-loading' : ''}`} disabled={exporting} onClick={exportCsv}>
            Export CSV
          </button>
        </div>
      </div>
      <div className="box">
        <label className="label is-small" htmlFor="afa-search">
          Search
        </label>
        <input
          id="afa-search"
          className="input is-small"
          type="search"
          placeholder="Search by full name, GH Card number or phone"
          value={searchInput}
          onChange={(e) => setSearchInput(e.target.value)}
        />
        <p className="help">
          {pagination && !pagination.exact ? 'about ' : ''}
          {countText(total)} registration{total === 1 ? '' : 's'}
        </p>
      </div>

      {loading ? (
        <div aria-busy="true" aria-label="Loading registrations">
          {Array.from({ length: 5 }, (_, i) => (
            <div key={i} className="ops-skeleton is-row" />
          ))}
        </div>
      ) : rows.length === 0 ? (
        <div className="box has-text-centered" data-empty>
          {search ? 'No registrations match your search.' : 'No AFA registrations yet.'}
        </div>
      ) : (
        <div className="table-container">
          <table className="table is-fullwidth is-striped is-hoverable is-narrow ops-table">
            <thead>
              <tr>
                <th>Full Name</th>
                <th>GH Card Number</th>
                <th>Phone Number</th>
                <th>Submitted</th>
                <th>Payment Status</th>
                <th>Completed</th>
                <th>Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const status = statusOf(r.paymentStatus)
                const busy = processing.has(r.id)
                return (
                  <tr key={r.id} data-afa-id={r.id}>
                    <td className="is-wrap">{r.fullName}</td>
                    <td className="is-monospace">{r.ghCard}</td>
                    <td className="is-monospace">{r.phone}</td>
                    <td>{formatDate(r.createdAt)}</td>
                    <td>
                      {r.paymentStatus ? <span className={`tag ${status.cls}`}>{status.label}</span> : 'N/A'}
                      {r.simulated ? (
                        <span className="tag is-warning is-light ml-1" title="Paid through the payment simulator: no real money moved">
                          Simulated
                        </span>
                      ) : null}
                    </td>
                    <td>{r.completed ? <span className="tag is-success is-light">Yes</span> : <span className="tag is-light">No</span>}</td>
                    <td>
                      <label className="checkbox">
                        <input
                          type="checkbox"
                          checked={r.completed}
                          disabled={r.completed || busy}
                          onChange={() => complete(r)}
                          aria-label={`Mark completed: ${r.fullName}`}
                        />{' '}
                        {busy ? 'Processing...' : 'Mark completed'}
                      </label>
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} totalPages={pagination?.totalPages ?? 1} onPage={setPage} label="AFA registration pages" />
    </section>
  )
}
