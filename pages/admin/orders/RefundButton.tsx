import { RefundDialog } from '../../../renderer/ui/RefundDialog.tsx'
import type { AdminOrder } from '../../../server/services/orders/admin.ts'

/** The admin's Refund on a paid order that was not delivered: a reason is required; the server refunds once. */
export function RefundButton({ order, onRefunded }: { order: AdminOrder; onRefunded: (o: AdminOrder) => void }) {
  // Not while the vendor may still deliver it (the server refuses that too).
  if (order.paymentStatus !== 'SUCCESS' || order.delivered || order.deliveryStatus === 'QUEUED' || order.deliveryStatus === 'PROCESSING') return null
  return (
    <RefundDialog
      id={String(order.id)}
      url={`/api/admin/orders/${order.id}/refund`}
      title="Refund order"
      text={`The payer gets back what they paid for the order to ${order.recipientNumber}; the agent's commission is reversed.`}
      label={`Refund order to ${order.recipientNumber}`}
      onRefunded={() => onRefunded({ ...order, paymentStatus: 'REFUNDED' })}
    />
  )
}
