import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { Pager } from '../../../renderer/ui/Pager.tsx'
import type { OutboxRow } from '../../../server/services/sms-outbox.ts'

interface OutboxPage {
  messages: OutboxRow[]
  simulated: boolean
  pagination: { page: number; totalPages: number; total: number }
}

/**
 * Read view of sms_outbox (minimal, to be merged with the SMS delivery page). With no SMS provider
 * (a fresh machine) this page is the phone: reset codes show here so the whole flow can be tried.
 */
export default function Page() {
  const [draft, setDraft] = useState('')
  const [phone, setPhone] = useState('')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<OutboxPage | null>(null)
  const [loading, setLoading] = useState(true)
  const [error, setError] = useState<string | null>(null)

  const load = useCallback(async () => {
    setLoading(true)
    setError(null)
    const q = new URLSearchParams({ page: String(page) })
    if (phone) q.set('phone', phone)
    try {
      setData(await api<OutboxPage>(`/api/admin/sms-outbox?${q}`))
    } catch (err) {
      setError(err instanceof ApiError && err.message ? err.message : 'Failed to load SMS messages')
    } finally {
      setLoading(false)
    }
  }, [page, phone])

  useEffect(() => {
    void load()
  }, [load])

  function apply(e: FormEvent) {
    e.preventDefault()
    setPage(1)
    setPhone(draft.replace(/\D/g, ''))
  }

  return (
    <section>
      <h1 className="title">SMS Outbox</h1>
      {data?.simulated ? (
        <div className="notification is-info is-light" role="status">No SMS provider is configured: messages stay here, and this page stands in for the phone.</div>
      ) : null}
      <form className="box" onSubmit={apply}>
        <div className="field has-addons">
          <div className="control is-expanded">
            <label className="label is-sr-only" htmlFor="outbox-phone">Phone number</label>
            <input id="outbox-phone" className="input" type="tel" inputMode="numeric" placeholder="Phone number" value={draft} onChange={(e) => setDraft(e.target.value)} />
          </div>
          <div className="control">
            <button type="submit" className={`button is-primary${loading ? ' is-loading' : ''}`}>Filter</button>
          </div>
          <div className="control">
            <button type="button" className="button" onClick={() => void load()} disabled={loading}>Refresh</button>
          </div>
        </div>
      </form>
      {error ? <div className="notification is-danger" role="alert">{error}</div> : null}
      <div className="box p-0">
        <div className="table-container">
          <table className="table is-fullwidth">
            <thead>
              <tr><th>Time</th><th>To</th><th>Message</th><th>Status</th></tr>
            </thead>
            <tbody aria-busy={loading}>
              {data && data.messages.length === 0 ? (
                <tr><td colSpan={4} className="has-text-centered py-5">No messages</td></tr>
              ) : (
                data?.messages.map((m) => (
                  <tr key={m.id} data-outbox-row={m.toPhone}>
                    <td className="is-size-7" style={{ whiteSpace: 'nowrap' }}>{new Date(m.createdAt).toLocaleString('en-GH')}</td>
                    <td className="is-monospace">{m.toPhone}</td>
                    <td data-outbox-message>{m.message}</td>
                    <td><span className="tag">{m.status}</span></td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </div>
      {data ? <Pager page={page} totalPages={data.pagination.totalPages} onPage={setPage} disabled={loading} label="SMS outbox pages" /> : null}
    </section>
  )
}
