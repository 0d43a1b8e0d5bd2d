import { useEffect, useState } from 'react'
import { api } from '../../../../renderer/api.ts'
import { deliveryLabel } from '../../../../renderer/format.ts'
import { usePageContext } from '../../../../renderer/usePageContext.tsx'
import { formatCedis } from '../../../../server/lib/money.ts'
import type { BatchLineView, BatchView } from '../../../../server/services/bulk/index.ts'
import { Gate } from '../../_shared/Gate.tsx'
import type { BatchData } from './+data.ts'
import { PaymentState } from './PaymentState.tsx'

const POLL_MS = 3000
const TAG: Record<string, string> = { DELIVERED: 'is-success', MANUAL: 'is-success', FAILED: 'is-danger', PROCESSING: 'is-info', QUEUED: 'is-warning' }

const same = (a: BatchView['counts'], b: BatchView['counts']) =>
  a.queued === b.queued && a.delivered === b.delivered && a.failed === b.failed && a.refunded === b.refunded

/** One batch: live counts (a small poll while lines are open), each line's state and reference, results and a retry of failed lines. */
export default function Page() {
  const pc = usePageContext() as ReturnType<typeof usePageContext> & { data: BatchData }
  const { agent } = pc.data
  const [batch, setBatch] = useState<BatchView | null>(pc.data.batch)
  const [lines, setLines] = useState<BatchLineView[]>(pc.data.lines)

  useEffect(() => {
    if (!batch || batch.done) return
    let stop = false
    const timer = setInterval(async () => {
      try {
        const { batch: now } = await api<{ batch: BatchView }>(`/api/bulk/${batch.id}/status`)
        if (stop) return
        // The lines are read again only when a count moved or the payment came in.
        if (!same(now.counts, batch.counts) || now.status !== batch.status) setLines((await api<{ lines: BatchLineView[] }>(`/api/bulk/${batch.id}`)).lines)
        setBatch(now)
      } catch {
        // A missed poll is retried at the next tick.
      }
    }, POLL_MS)
    return () => {
      stop = true
      clearInterval(timer)
    }
  }, [batch])

  if (!batch)
    return (
      <section>
        <h1 className="title">Bulk Order</h1>
        <Gate agent={agent} />
      </section>
    )
  const c = batch.counts
  return (
    <section>
      <h1 className="title">Bulk order #{batch.id}</h1>
      <p className="subtitle is-6">
        {batch.lines} lines, {formatCedis(batch.total)}, ordered on {new Date(batch.createdAt).toLocaleString('en-GH')}.
      </p>
      <PaymentState batch={batch} />
      <div className="columns is-mobile is-multiline" role="status" aria-live="polite" data-testid="bulk-counts">
        {(
          [
            ['Queued', c.queued],
            ['Delivered', c.delivered],
            ['Failed', c.failed],
            ['Refunded', c.refunded]
          ] as const
        ).map(([label, n]) => (
          <div className="column is-half-mobile is-one-quarter-tablet" key={label}>
            <div className="box has-text-centered">
              <p className="heading">{label}</p>
              <p className="stat-value" data-count={label.toLowerCase()}>
                {n}
              </p>
            </div>
          </div>
        ))}
      </div>
      {batch.status === 'PAID' ? <p className="mb-3">{batch.done ? 'Every line has ended.' : 'Updating as the bundles go out...'}</p> : null}
      <div className="buttons">
        <a className="button" href={`/api/bulk/${batch.id}/results.csv`} download>
          Download results (CSV)
        </a>
        {c.failed ? (
          <a className="button is-warning" href={`/agent/bulk?from=${batch.id}`}>
            Order the {c.failed} failed lines again
          </a>
        ) : null}
        <a className="button is-light" href="/agent/bulk">
          New bulk order
        </a>
      </div>
      <div className="table-container" tabIndex={0} role="region" aria-label="Lines of this bulk order" /* wider than the screen: keyboard-scrollable */>
        <table className="table is-fullwidth is-narrow is-striped">
          <caption className="is-sr-only">Lines of bulk order {batch.id}</caption>
          <thead>
            <tr>
              <th scope="col">Order</th>
              <th scope="col">Number</th>
              <th scope="col">Bundle</th>
              <th scope="col">Amount</th>
              <th scope="col">State</th>
              <th scope="col">Reference</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.orderId} data-status={l.deliveryStatus}>
                <td>{l.orderId}</td>
                <td>{l.recipientNumber}</td>
                <td>{l.bundle}</td>
                <td>{formatCedis(l.amount)}</td>
                <td>
                  <span className={`tag ${TAG[l.deliveryStatus] ?? 'is-light'}`}>{deliveryLabel(l.deliveryStatus)}</span>
                  {l.paymentStatus === 'REFUNDED' ? <span className="tag is-light ml-1">Refunded</span> : null}
                </td>
                <td className="is-family-monospace">{l.reference ?? '-'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  )
}
