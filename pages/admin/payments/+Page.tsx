import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../../renderer/api.ts'
import { useToast } from '../../../renderer/ui/Toasts.tsx'
import { usePageContext } from '../../../renderer/usePageContext.tsx'
import { formatDate } from '../../../renderer/format.ts'
import '../_ops/ops.css'
import type { AttentionData } from './+data.ts'

const KIND_LABEL: Record<string, string> = {
  late_success: 'Late payment',
  wrong_amount: 'Wrong amount or currency',
  overpaid: 'Overpaid',
  reversal: 'Reversed',
  dispute: 'Disputed',
  recon_mismatch: 'Reconciliation mismatch',
  refund_in_flight: 'Refund in progress',
  refund_failed: 'Refund failed',
  unhandled_event: 'Gateway event',
  // Payouts the code could not decide (see Payouts).
  payout_mismatch: 'Payout: amount differs',
  payout_unclear: 'Payout: transfer not found',
  payout_refused: 'Payout refused by the gateway',
  payout_otp: 'Payout waits for an OTP'
}
const KIND_TAG: Record<string, string> = {
  refund_failed: 'is-danger',
  dispute: 'is-danger',
  reversal: 'is-warning',
  wrong_amount: 'is-warning',
  recon_mismatch: 'is-warning',
  refund_in_flight: 'is-info'
}

/** Late successes, refunds in flight and failed, reversals, disputes, mismatches and unknown gateway events. */
export default function Page() {
  const initial = (usePageContext() as unknown as { data: AttentionData }).data
  const toast = useToast()
  const [items, setItems] = useState(initial.items)
  const [runs, setRuns] = useState(initial.runs)
  const [busy, setBusy] = useState<string | null>(null)
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
  const [range, setRange] = useState({ from: yesterday, to: '' })

  async function reload() {
    const r = await api<AttentionData & { count: number }>('/api/admin/payments/attention')
    setItems(r.items)
    setRuns(r.runs)
  }
  async function reconcileNow(e: FormEvent) {
    e.preventDefault()
    setBusy('reconcile')
    try {
      const r = await api<{ mismatches: number; runs: unknown[] }>('/api/admin/payments/reconcile', {
        method: 'POST',
        body: { from: range.from, to: range.to || undefined }
      })
      toast(
        `Reconciled ${r.runs.length} day${r.runs.length === 1 ? '' : 's'}: ${r.mismatches === 0 ? 'nothing differs' : `${r.mismatches} to look at`}`,
        r.mismatches ? 'info' : 'success'
      )
      await reload()
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Reconciliation failed', 'error')
    } finally {
      setBusy(null)
    }
  }
  async function act(key: string, path: string, done: string) {
    setBusy(key)
    try {
      await api(path, { method: 'POST', body: {} })
      toast(done, 'success')
      await reload()
    } catch (err) {
      toast(err instanceof ApiError ? err.message : 'Action failed', 'error')
    } finally {
      setBusy(null)
    }
  }

  return (
    <section className="ops-page">
      <h1 className="title is-4">Payments needing attention</h1>
      <p className="mb-4 has-text-grey" data-testid="attention-count">
        {items.length === 0 ? 'Nothing needs attention.' : `${items.length} item${items.length === 1 ? '' : 's'} need attention.`}
      </p>
      {items.map((i) => {
        const key = `${i.type}-${i.id}`
        return (
          <article className="box" key={key} data-testid="attention-item" data-kind={i.kind}>
            <div className="level is-mobile mb-2" style={{ flexWrap: 'wrap', gap: '.5rem' }}>
              <div className="level-left" style={{ gap: '.5rem', flexWrap: 'wrap' }}>
                <span className={`tag ${KIND_TAG[i.kind] ?? 'is-light'}`}>{KIND_LABEL[i.kind] ?? i.kind}</span>
                {i.transactionId ? <span className="is-family-monospace is-size-7">{i.transactionId}</span> : null}
              </div>
              <div className="level-right is-size-7 has-text-grey">
                <time dateTime={i.createdAt}>{formatDate(i.createdAt)}</time>
              </div>
            </div>
            <p className="has-text-weight-semibold">{i.summary}</p>
            {i.actionTaken ? <p className="is-size-7 mt-1">What was done: {i.actionTaken}</p> : null}
            {i.type === 'event' ? (
              <details className="mt-2">
                <summary>Payload</summary>
                <pre className="is-size-7" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
                  {JSON.stringify(i.details, null, 2)}
                </pre>
              </details>
            ) : null}
            <div className="buttons mt-3">
              {i.actions.includes('retry_refund') ? (
                <button
                  className={`button is-small is-warning${busy === key ? ' is-loading' : ''}`}
                  disabled={!!busy}
                  onClick={() => void act(key, `/api/admin/refunds/${i.id}/retry`, 'Refund sent again')}>
                  Retry refund
                </button>
              ) : null}
              {i.actions.includes('resolve') ? (
                <button
                  className={`button is-small${busy === key ? ' is-loading' : ''}`}
                  disabled={!!busy}
                  onClick={() => void act(key, `/api/admin/payments/attention/${i.type}/${i.id}/resolve`, 'Marked as dealt with')}>
                  Mark as dealt with
                </button>
              ) : null}
            </div>
          </article>
        )
      })}

      <h2 className="title is-5 mt-5">Daily reconciliation</h2>
      <p className="mb-3 has-text-grey">It runs every day at 01:10 UTC for the day before, and at start-up for days missed while the shop was stopped.</p>
      <form className="box" onSubmit={(e) => void reconcileNow(e)} aria-label="Reconcile now" data-testid="reconcile-now">
        <div className="field is-grouped is-grouped-multiline">
          <div className="control">
            <label className="label is-small" htmlFor="recon-from">
              From (UTC day)
            </label>
            <input
              id="recon-from"
              className="input is-small"
              type="date"
              required
              max={new Date().toISOString().slice(0, 10)}
              value={range.from}
              onChange={(e) => setRange({ ...range, from: e.target.value })}
            />
          </div>
          <div className="control">
            <label className="label is-small" htmlFor="recon-to">
              To (optional, at most 31 days)
            </label>
            <input
              id="recon-to"
              className="input is-small"
              type="date"
              min={range.from}
              max={new Date().toISOString().slice(0, 10)}
              value={range.to}
              onChange={(e) => setRange({ ...range, to: e.target.value })}
            />
          </div>
          <div className="control" style={{ alignSelf: 'flex-end' }}>
            <button type="submit" className={`button is-small is-link${busy === 'reconcile' ? ' is-loading' : ''}`} disabled={!!busy}>
              Reconcile now
            </button>
          </div>
        </div>
      </form>
      {runs.length === 0 ? (
        <p className="has-text-grey">No reconciliation has run yet.</p>
      ) : (
        <div className="table-container">
          <table className="table is-fullwidth is-striped">
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Status</th>
                <th scope="col">At the gateway</th>
                <th scope="col">Here</th>
                <th scope="col">Mismatches</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <td>{r.day}</td>
                  <td>
                    {r.status}
                    {r.message ? `: ${r.message}` : ''}
                  </td>
                  <td>{r.gatewayCount}</td>
                  <td>{r.localCount}</td>
                  <td>{r.mismatches}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  )
}
