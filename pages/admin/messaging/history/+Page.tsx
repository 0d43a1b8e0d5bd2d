import { useCallback, useEffect, useState } from 'react'
import { api } from '../../../../renderer/api.ts'
import type { AdminMessageView } from '../../../../server/services/messages/admin-messages.ts'

const PRIORITY_CLASS: Record<string, string> = { LOW: '', NORMAL: 'is-info', HIGH: 'is-warning', URGENT: 'is-danger' }
const CONFIRM = 'Are you sure you want to delete this message? This action cannot be undone.'

export default function Page() {
  const [priority, setPriority] = useState('')
  const [page, setPage] = useState(1)
  const [messages, setMessages] = useState<AdminMessageView[]>([])
  const [totalPages, setTotalPages] = useState(1)
  const [loading, setLoading] = useState(true)
  const [failed, setFailed] = useState(false)
  const [deleting, setDeleting] = useState<number | null>(null)

  const load = useCallback(async () => {
    setLoading(true)
    setFailed(false)
    const q = new URLSearchParams({ page: String(page) })
    if (priority) q.set('priority', priority)
    try {
      const res = await api<{ messages: AdminMessageView[]; pagination: { totalPages: number } }>(`/api/admin-messages?${q}`)
      setMessages(res.messages)
      setTotalPages(res.pagination.totalPages)
    } catch {
      setFailed(true)
    } finally {
      setLoading(false)
    }
  }, [page, priority])
  useEffect(() => {
    void load()
  }, [load])

  async function remove(m: AdminMessageView) {
    if (!window.confirm(CONFIRM)) return
    setDeleting(m.id)
    try {
      await api(`/api/admin-messages/${m.id}`, { method: 'DELETE' })
      setMessages((list) => list.filter((x) => x.id !== m.id))
      window.alert('Message deleted successfully!')
    } catch (err) {
      window.alert(`Failed to delete message: ${err instanceof Error ? err.message : 'Unknown error'}`)
    } finally {
      setDeleting(null)
    }
  }

  return (
    <section>
      <div className="is-flex is-flex-wrap-wrap is-justify-content-space-between is-align-items-center mb-4" style={{ gap: '.75rem' }}>
        <div>
          <div>
            <h1 className="title">Message History</h1>
            <p className="subtitle is-6">Messages sent to agents and who has read them</p>
          </div>
        </div>
        <div>
          <a className="button is-primary" href="/admin/messaging">
            Send Message
          </a>
        </div>
      </div>

      <div className="box">
        <div className="field is-grouped is-grouped-multiline is-align-items-flex-end">
          <div className="control">
            <label className="label" htmlFor="history-priority">
              Priority
            </label>
            <div className="select">
              <select
                id="history-priority"
                value={priority}
                onChange={(e) => {
                  setPriority(e.target.value)
                  setPage(1)
                }}>
                <option value="">All</option>
                {['LOW', 'NORMAL', 'HIGH', 'URGENT'].map((p) => (
                  <option key={p} value={p}>
                    {p}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="control">
            <button className={`button${loading ? ' is-loading' : ''}`} onClick={() => void load()} disabled={loading}>
              Refresh
            </button>
          </div>
        </div>
      </div>

      {loading && !messages.length ? (
        <p className="has-text-centered py-5">Loading messages...</p>
      ) : failed ? (
        <div className="notification is-danger is-light">Failed to load messages. Use Refresh to try again.</div>
      ) : messages.length === 0 ? (
        <div className="box has-text-centered py-6">
          <p className="has-text-weight-semibold">No messages found.</p>
          <p className="has-text-grey">{priority ? 'No messages with this priority.' : 'Messages you send to agents appear here.'}</p>
        </div>
      ) : (
        messages.map((m) => (
          <article key={m.id} className="box" data-message={m.title}>
            <div className="is-flex is-justify-content-space-between is-align-items-flex-start" style={{ gap: '.75rem' }}>
              <div style={{ minWidth: 0 }}>
                <h2 className="title is-5 mb-1" style={{ overflowWrap: 'anywhere' }}>
                  {m.title}
                </h2>
                <p className="is-size-7 has-text-grey">
                  <span className={`tag ${PRIORITY_CLASS[m.priority] ?? ''}`}>{m.priority}</span>{' '}
                  {new Date(m.createdAt).toLocaleString('en-GH', { dateStyle: 'medium', timeStyle: 'short' })} · Read by {m.readCount} of {m.recipientCount}
                </p>
              </div>
              <button
                className={`button is-small is-danger is-light${deleting === m.id ? ' is-loading' : ''}`}
                aria-label={`Delete message ${m.title}`}
                onClick={() => void remove(m)}>
                Delete
              </button>
            </div>
            <p className="my-3" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {m.message}
            </p>
            <details open={m.recipientCount <= 10}>
              <summary className="is-size-7 has-text-weight-semibold">Recipients ({m.recipientCount})</summary>
              <ul className="mt-2">
                {m.recipients.map((r) => (
                  <li key={r.id} className="is-flex is-justify-content-space-between py-1" data-recipient={r.user.email} style={{ gap: '.5rem' }}>
                    <span style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                      {r.user.name ? `${r.user.name} · ` : ''}
                      {r.user.email}
                    </span>
                    {r.isRead ? <span className="tag is-success is-light">Read</span> : <span className="tag is-warning is-light">Unread</span>}
                  </li>
                ))}
                {m.recipientCount > m.recipients.length ? <li className="is-size-7 has-text-grey">and {m.recipientCount - m.recipients.length} more</li> : null}
              </ul>
            </details>
          </article>
        ))
      )}

      {totalPages > 1 ? (
        <nav className="pagination is-small is-centered" aria-label="History pages">
          <button className="pagination-previous" disabled={page <= 1 || loading} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <button className="pagination-next" disabled={page >= totalPages || loading} onClick={() => setPage(page + 1)}>
            Next
          </button>
          <p className="pagination-list is-size-7">
            Page {page} of {totalPages}
          </p>
        </nav>
      ) : null}
    </section>
  )
}
