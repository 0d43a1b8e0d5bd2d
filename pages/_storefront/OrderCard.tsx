import type { ReactNode } from 'react'
import { formatCedis, formatDate, formatSize, NETWORK_LABEL, statusClass } from './format.ts'
import { statusLabel } from './payment-texts.ts'
import type { SeenOrder } from './seen-orders.ts'

/** One order as the buyer reads it: My Orders' look-up results and the orders saved on this device. */
export function OrderCard({ order: o, children }: { order: Omit<SeenOrder, 'seenAt'> & { paymentPhoneNumber?: string | null }; children?: ReactNode }) {
  return (
    <article className="card sf-order-card" data-testid="order-card">
      <div className="card-content">
        <div className="sf-between">
          <strong>
            {NETWORK_LABEL[o.network] ?? o.network} · {o.packageName ?? formatSize(o.dataSizeMB)}
          </strong>
          <span className={`tag ${statusClass(o.paymentStatus)}`} data-status={o.paymentStatus}>
            {statusLabel(o.paymentStatus)}
          </span>
        </div>
        <p className="sf-muted">{formatDate(o.createdAt)}</p>
        <dl className="sf-summary sf-gap-top">
          <dt>Amount</dt>
          <dd>{formatCedis(o.amount)}</dd>
          <dt>Recipient</dt>
          <dd>{o.recipientNumber}</dd>
          {o.paymentPhoneNumber !== undefined ? (
            <>
              <dt>Payment phone</dt>
              <dd>{o.paymentPhoneNumber || 'N/A'}</dd>
            </>
          ) : null}
          <dt>Transaction ID</dt>
          <dd className="sf-mono">{o.paymentTransactionId || 'N/A'}</dd>
          {children}
        </dl>
      </div>
    </article>
  )
}
