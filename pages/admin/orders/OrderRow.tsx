import type { AdminOrder } from '../../../server/services/orders/admin.ts'
import { DeliveryBadge } from '../../../renderer/ui/DeliveryBadge.tsx'
import { CHANNEL_LABEL, formatCedis, formatDate, NETWORK_LABEL, sizeLabel, statusOf } from '../_ops/format.ts'
import { RefundButton } from './RefundButton.tsx'

export function AgentCell({ order }: { order: AdminOrder }) {
  const agent = order.user?.agent
  if (order.shop) {
    return (
      <div data-testid="shop-order">
        <span className="tag is-info is-light">Shop</span> <a href={`/shop/${order.shop.slug}`}>{order.shop.name}</a>
        <div className="is-size-7">Margin {formatCedis(order.shop.margin ?? 0)}</div>
      </div>
    )
  }
  // Customers ordering by phone say so: the channel is how they reached the shop.
  if (!agent) {
    return (
      <span className="has-text-grey">
        Direct Customer
        {order.channel && order.channel !== 'web' ? (
          <>
            {' '}
            <span className="tag is-light" data-channel={order.channel}>
              {CHANNEL_LABEL[order.channel] ?? order.channel}
            </span>
          </>
        ) : null}
      </span>
    )
  }
  return (
    <div>
      <div className="has-text-weight-semibold">{agent.name}</div>
      <div className="is-size-7">{agent.phone}</div>
      {agent.approved ? null : <div className="is-size-7 has-text-danger">Not Approved</div>}
    </div>
  )
}

/** Delivery badge, vendor reference, attempts and the last error. */
export function DeliveryCell({ order }: { order: AdminOrder }) {
  return (
    <div data-testid="delivery-cell">
      <DeliveryBadge status={order.deliveryStatus} paid={order.paymentStatus === 'SUCCESS'} admin />
      {order.deliveryReference ? (
        <div className="is-size-7 is-monospace" title={order.deliveryVendor ?? undefined}>
          {order.deliveryReference}
        </div>
      ) : null}
      {order.deliveryAttempts ? (
        <div className="is-size-7">
          {order.deliveryAttempts} attempt{order.deliveryAttempts === 1 ? '' : 's'}
        </div>
      ) : null}
      {order.deliveryError ? <div className="is-size-7 has-text-danger">{order.deliveryError}</div> : null}
    </div>
  )
}

export function OrderRow({
  order,
  history,
  busy,
  onDelivered,
  onRetry,
  onRefunded
}: {
  order: AdminOrder
  history: boolean
  busy: boolean
  onDelivered: (o: AdminOrder) => void
  onRetry: (o: AdminOrder) => void
  onRefunded?: (o: AdminOrder) => void
}) {
  const retryable = order.paymentStatus === 'SUCCESS' && (order.deliveryStatus === 'FAILED' || order.deliveryStatus === 'NOT_STARTED')
  const status = statusOf(order.paymentStatus)
  const paid = order.paymentStatus === 'SUCCESS'
  return (
    <tr data-order-id={order.id}>
      <td data-label="Recipient" className="is-monospace">
        {order.recipientNumber}
      </td>
      <td data-label="Network">{NETWORK_LABEL[order.network] ?? order.network}</td>
      <td data-label="Size">{sizeLabel(order.dataSizeMB)}</td>
      <td data-label="Amount">{order.amount === null || order.amount === undefined ? '-' : formatCedis(order.amount)}</td>
      <td data-label="Agent" className="is-wrap">
        <AgentCell order={order} />
      </td>
      <td data-label="Payment Status">
        <span className={`tag ${status.cls}`}>{status.label}</span>
        {order.simulated ? (
          <span className="tag is-warning is-light ml-1" title="Paid through the payment simulator: no real money moved" data-testid="simulated-tag">
            Simulated
          </span>
        ) : null}
      </td>
      <td data-label="Transaction ID" className="is-monospace is-size-7">
        {order.paymentTransactionId || 'N/A'}
      </td>
      <td data-label={history ? 'Exported At' : 'Date'}>{formatDate(history ? order.exportedAt : order.createdAt)}</td>
      {history ? null : (
        <>
          <td data-label="Delivery" className="is-wrap">
            <DeliveryCell order={order} />
          </td>
          <td data-label="Actions">
            {retryable ? (
              <button
                type="button"
                className={`button is-small is-warning mb-1${busy ? ' is-loading' : ''}`}
                disabled={busy}
                onClick={() => onRetry(order)}
                aria-label={`Retry delivery: order to ${order.recipientNumber}`}>
                Retry delivery
              </button>
            ) : null}
            <label className="checkbox" title={paid ? undefined : 'Only paid orders can be marked delivered'}>
              <input
                type="checkbox"
                checked={order.delivered}
                disabled={order.delivered || !paid || busy}
                onChange={() => onDelivered(order)}
                aria-label={`Mark delivered: order to ${order.recipientNumber}`}
              />{' '}
              {busy ? 'Saving...' : 'Mark delivered'}
            </label>
            {onRefunded ? <RefundButton order={order} onRefunded={onRefunded} /> : null}
          </td>
        </>
      )}
    </tr>
  )
}
