import { useEffect, useRef, useState } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { SelectField } from '../../../renderer/ui/SelectField.tsx'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { countText, formatDate } from '../_ops/format.ts'
import '../_ops/ops.css'
import { Pager } from '../_ops/Pager.tsx'
import type { SmsService } from '../../../server/services/sms/index.ts'

type List = Awaited<ReturnType<SmsService['list']>>
const STATUS_CLASS: Record<string, string> = { QUEUED: 'is-warning', SENDING: 'is-info', SENT: 'is-success', FAILED: 'is-danger' }
const STATUSES = [
  { value: 'ALL', label: 'All' },
  { value: 'QUEUED', label: 'Queued' },
  { value: 'SENDING', label: 'Sending' },
  { value: 'SENT', label: 'Sent' },
  { value: 'FAILED', label: 'Failed' }
]
const STATUS_TEXT = Object.fromEntries(STATUSES.map((s) => [s.value, s.label]))
/** The log provider only writes the text to the server log: calling that "sent" would say a phone got it. */
const statusText = (m: { status: string; provider: string | null }) =>
  m.status === 'SENT' && m.provider === 'log' ? 'Logged (no SMS provider)' : (STATUS_TEXT[m.status] ?? m.status)

/** Every text message the shop wrote (orders, deliveries, account recovery...), with what the provider said. */
export default function Page() {
  const toast = useToast()
  const [status, setStatus] = useState('ALL')
  const [page, setPage] = useState(1)
  const [data, setData] = useState<List | null>(null)
  const [loading, setLoading] = useState(true)
  const seq = useRef(0)

  useEffect(() => {
    const mine = ++seq.current
    setLoading(true)
    api<List>(`/api/delivery/sms?page=${page}&limit=20&status=${status}`)
      .then((d) => mine === seq.current && setData(d))
      .catch((err) => mine === seq.current && toast(err instanceof ApiError ? err.message : 'Failed to load messages', 'error'))
      .finally(() => mine === seq.current && setLoading(false))
  }, [status, page, toast])

  return (
    <section className="ops-page">
      <h1 className="title is-4">SMS Messages</h1>
      <p className="subtitle is-6">
        Provider: {data?.provider === 'arkesel' ? 'Arkesel' : data?.provider === 'log' ? 'Log only (no SMS provider configured)' : '-'}
      </p>
      <div className="box">
        <div className="columns">
          <div className="column is-4">
            <SelectField
              id="sms-status"
              label="Status"
              value={status}
              onChange={(v) => {
                setStatus(v)
                setPage(1)
              }}
              options={STATUSES}
            />
          </div>
        </div>
      </div>
      {loading && !data ? (
        <div aria-busy="true" aria-label="Loading messages">
          <div className="ops-skeleton mb-3" />
        </div>
      ) : !data || data.messages.length === 0 ? (
        <div className="box has-text-centered" data-empty>
          <p>No messages found.</p>
        </div>
      ) : (
        <>
          <p className="mb-2" aria-live="polite">
            {countText(data.pagination.total)} message{data.pagination.total === 1 ? '' : 's'}
          </p>
          <div className="table-container" aria-busy={loading}>
            <table className="table is-stacked-mobile is-fullwidth is-striped is-narrow ops-table">
              <thead>
                <tr>
                  <th>To</th>
                  <th>Message</th>
                  <th>Status</th>
                  <th>Provider message ID</th>
                  <th>Attempts</th>
                  <th>Created</th>
                  <th>Sent</th>
                </tr>
              </thead>
              <tbody>
                {data.messages.map((m) => (
                  <tr key={m.id} data-sms-id={m.id} data-outbox-row={m.to}>
                    <td data-label="To" className="is-monospace">
                      {m.to}
                    </td>
                    <td data-label="Message" className="is-wrap">
                      <span data-outbox-message>{m.message}</span>
                      {m.error ? <div className="is-size-7 has-text-danger">{m.error}</div> : null}
                    </td>
                    <td data-label="Status">
                      <span
                        className={`tag ${m.status === 'SENT' && m.provider === 'log' ? 'is-light' : (STATUS_CLASS[m.status] ?? 'is-light')}`}
                        data-status={m.status}>
                        {statusText(m)}
                      </span>
                    </td>
                    <td data-label="Provider message ID" className="is-monospace is-size-7">
                      {m.providerMessageId ?? '-'}
                    </td>
                    <td data-label="Attempts">{m.attempts}</td>
                    <td data-label="Created">{formatDate(m.createdAt)}</td>
                    <td data-label="Sent">{formatDate(m.sentAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} totalPages={data.pagination.totalPages} onPage={setPage} label="Message pages" />
        </>
      )}
    </section>
  )
}
