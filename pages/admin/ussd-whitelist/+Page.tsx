import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import type { WhitelistEntry } from '../../../server/services/whitelist/index.ts'
import { BulkImport } from './BulkImport.tsx'
import { EditStatus } from './EditStatus.tsx'
import { matchesPhone, pageWindow } from './parse.ts'

const SIZES = [5, 10, 25, 50, 100]
const why = (err: unknown) => (err instanceof ApiError ? err.message : String(err))

export default function Page() {
  const toast = useToast()
  const { settings } = usePageContext()
  const [entries, setEntries] = useState<WhitelistEntry[]>([])
  const [enabled, setEnabled] = useState(settings.ussdWhitelistEnabled === true)
  const [loading, setLoading] = useState(true)
  const [toggling, setToggling] = useState(false)
  const [phone, setPhone] = useState('')
  const [adding, setAdding] = useState(false)
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<'all' | 'active' | 'inactive'>('all')
  const [size, setSize] = useState(10)
  const [page, setPage] = useState(1)
  const [bulkOpen, setBulkOpen] = useState(false)
  const [editing, setEditing] = useState<WhitelistEntry | null>(null)
  const [deleting, setDeleting] = useState<number | null>(null)

  const load = useCallback(async () => {
    setLoading(true)
    try {
      const res = await api<{ entries: WhitelistEntry[]; enabled: boolean }>('/api/ussd-whitelist')
      setEntries(res.entries)
      setEnabled(res.enabled)
    } catch (err) {
      toast(`Failed to load whitelist: ${why(err)}`, 'error')
    } finally {
      setLoading(false)
    }
  }, [toast])
  useEffect(() => {
    void load()
  }, [load])

  const filtered = useMemo(
    () => entries.filter((e) => matchesPhone(e.phoneNumber, search) && (status === 'all' || (status === 'active') === e.isActive)),
    [entries, search, status]
  )
  const totalPages = Math.max(1, Math.ceil(filtered.length / size))
  const current = Math.min(page, totalPages)
  const shown = filtered.slice((current - 1) * size, current * size)
  const activeCount = entries.filter((e) => e.isActive).length

  async function toggle(next: boolean) {
    setToggling(true)
    try {
      await api('/api/settings', { method: 'PUT', body: { ussdWhitelistEnabled: next } })
      setEnabled(next)
      toast(next ? 'USSD whitelist enabled' : 'USSD whitelist disabled', 'success')
    } catch (err) {
      toast(`Failed to update whitelist setting: ${why(err)}`, 'error')
    } finally {
      setToggling(false)
    }
  }

  async function add(e: FormEvent) {
    e.preventDefault()
    if (!phone.trim()) return toast('Please enter a phone number', 'error')
    setAdding(true)
    try {
      const res = await api<{ entry: WhitelistEntry }>('/api/ussd-whitelist', { body: { phoneNumber: phone.trim() } })
      setEntries((list) => [res.entry, ...list])
      setPhone('')
      toast('Number added to whitelist', 'success')
    } catch (err) {
      toast(`Failed to add number: ${why(err)}`, 'error')
    } finally {
      setAdding(false)
    }
  }

  async function remove(entry: WhitelistEntry) {
    if (!window.confirm(`Are you sure you want to delete ${entry.phoneNumber} from the whitelist?`)) return
    setDeleting(entry.id)
    try {
      await api(`/api/ussd-whitelist/${entry.id}`, { method: 'DELETE' })
      setEntries((list) => list.filter((x) => x.id !== entry.id))
      toast('Entry deleted', 'success')
    } catch (err) {
      toast(`Failed to delete entry: ${why(err)}`, 'error')
    } finally {
      setDeleting(null)
    }
  }

  return (
    <section>
      <h1 className="title">USSD Whitelist</h1>
      <p className="subtitle is-6">Phone numbers allowed to use the USSD menu</p>

      <div className="box">
        <label className="checkbox" htmlFor="whitelist-enabled">
          <input
            id="whitelist-enabled"
            type="checkbox"
            role="switch"
            aria-checked={enabled}
            checked={enabled}
            disabled={toggling}
            onChange={(e) => void toggle(e.target.checked)}
          />{' '}
          <strong>Enable USSD whitelist</strong>
        </label>
        <p className="help">
          {enabled ? 'Only active numbers below can use the USSD menu.' : 'Off: every registered agent can use the USSD menu.'} {activeCount} active of{' '}
          {entries.length} numbers.
        </p>
      </div>

      <div className="box">
        <form onSubmit={add} noValidate>
          <label className="label" htmlFor="whitelist-phone">
            Add Number
          </label>
          <div className="field has-addons">
            <div className="control is-expanded">
              <input
                id="whitelist-phone"
                className="input"
                type="tel"
                inputMode="numeric"
                maxLength={16}
                placeholder="0241234567 or 233241234567"
                value={phone}
                onChange={(e) => setPhone(e.target.value)}
              />
            </div>
            <div className="control">
              <button type="submit" className={`button is-primary${adding ? ' is-loading' : ''}`} disabled={adding}>
                Add Number
              </button>
            </div>
          </div>
        </form>
        <button className="button is-link is-light mt-3" onClick={() => setBulkOpen(true)}>
          Bulk Import
        </button>
      </div>

      <div className="box">
        <div className="columns is-mobile is-multiline">
          <div className="column is-full-mobile">
            <label className="label" htmlFor="whitelist-search">
              Search
            </label>
            <input
              id="whitelist-search"
              className="input"
              type="search"
              placeholder="Search phone numbers..."
              value={search}
              onChange={(e) => {
                setSearch(e.target.value)
                setPage(1)
              }}
            />
          </div>
          <div className="column is-half-mobile is-narrow">
            <label className="label" htmlFor="whitelist-status">
              Status
            </label>
            <div className="select">
              <select
                id="whitelist-status"
                value={status}
                onChange={(e) => {
                  setStatus(e.target.value as typeof status)
                  setPage(1)
                }}>
                <option value="all">All</option>
                <option value="active">Active Only</option>
                <option value="inactive">Inactive Only</option>
              </select>
            </div>
          </div>
          <div className="column is-half-mobile is-narrow">
            <label className="label" htmlFor="whitelist-size">
              Per page
            </label>
            <div className="select">
              <select
                id="whitelist-size"
                value={size}
                onChange={(e) => {
                  setSize(Number(e.target.value))
                  setPage(1)
                }}>
                {SIZES.map((s) => (
                  <option key={s} value={s}>
                    {s}
                  </option>
                ))}
              </select>
            </div>
          </div>
        </div>

        <div className="table-container" style={{ position: 'relative' }}>
          <table className="table is-fullwidth is-hoverable">
            <thead>
              <tr>
                <th>Phone Number</th>
                <th>Status</th>
                <th className="is-hidden-mobile">Added</th>
                <th>
                  <span className="is-sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody aria-busy={loading}>
              {loading ? (
                <tr>
                  <td colSpan={4} className="has-text-centered py-5">
                    Loading whitelist...
                  </td>
                </tr>
              ) : shown.length === 0 ? (
                <tr>
                  <td colSpan={4} className="has-text-centered py-5">
                    {entries.length ? 'No numbers match your search.' : 'No whitelisted numbers yet.'}
                  </td>
                </tr>
              ) : (
                shown.map((e) => (
                  <tr key={e.id} data-phone={e.phoneNumber}>
                    <td style={{ whiteSpace: 'nowrap', fontFamily: 'ui-monospace, monospace' }}>{e.phoneNumber}</td>
                    <td>{e.isActive ? <span className="tag is-success">Active</span> : <span className="tag">Inactive</span>}</td>
                    <td className="is-size-7 is-hidden-mobile">{new Date(e.addedAt).toLocaleString('en-GH', { dateStyle: 'medium', timeStyle: 'short' })}</td>
                    <td>
                      <div className="buttons are-small is-flex-wrap-nowrap">
                        <button className="button" aria-label={`Edit ${e.phoneNumber}`} onClick={() => setEditing(e)}>
                          Edit
                        </button>
                        <button
                          className={`button is-danger is-light${deleting === e.id ? ' is-loading' : ''}`}
                          aria-label={`Delete ${e.phoneNumber}`}
                          onClick={() => void remove(e)}>
                          Delete
                        </button>
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>

        {filtered.length ? (
          <div className="level is-mobile is-flex-wrap-wrap">
            <p className="is-size-7">
              Showing {(current - 1) * size + 1} to {Math.min(current * size, filtered.length)} of {filtered.length}
            </p>
            {totalPages > 1 ? (
              <nav className="pagination is-small" aria-label="Whitelist pages">
                <ul className="pagination-list">
                  <li>
                    <button className="pagination-link" disabled={current <= 1} onClick={() => setPage(current - 1)}>
                      Previous
                    </button>
                  </li>
                  {pageWindow(current, totalPages).map((p) => (
                    <li key={p}>
                      <button
                        className={`pagination-link${p === current ? ' is-current' : ''}`}
                        aria-label={`Page ${p}`}
                        aria-current={p === current ? 'page' : undefined}
                        onClick={() => setPage(p)}>
                        {p}
                      </button>
                    </li>
                  ))}
                  <li>
                    <button className="pagination-link" disabled={current >= totalPages} onClick={() => setPage(current + 1)}>
                      Next
                    </button>
                  </li>
                </ul>
              </nav>
            ) : null}
          </div>
        ) : null}
      </div>

      {bulkOpen ? (
        <BulkImport
          onClose={() => setBulkOpen(false)}
          onDone={() => {
            setBulkOpen(false)
            void load()
          }}
        />
      ) : null}
      {editing ? (
        <EditStatus
          entry={editing}
          onClose={() => setEditing(null)}
          onSaved={(u) => {
            setEntries((list) => list.map((x) => (x.id === u.id ? u : x)))
            setEditing(null)
          }}
        />
      ) : null}
    </section>
  )
}
