import type { DeliveryChange, DeliveryScope } from '../delivery/types.ts'
import type { PaymentRow } from '../payments/provider.ts'
import type { Settings } from '../settings/index.ts'

/**
 * The facts capabilities react to, each with its payload. Every one is published inside the
 * transaction that made it true, and its handlers run in that transaction (ADR 0037).
 */
export interface DomainEvents {
  /**
   * Settlement moved an order's payment out of pending (paid, failed...): `agentId` when an agent placed it.
   * `agentHooked`: whether that agent had a webhook URL, when the statement that wrote the order read it in this
   * transaction (a wallet order's, ADR 0075); absent when nothing read it.
   */
  'order.settled': { orderId: number; agentId: number | null; agentHooked?: boolean }
  /**
   * A bulk order's lines were paid and queued for delivery together, set-based (ADR 0039): this one
   * fact stands for each line's `order.settled` and its `delivery.changed` NOT_STARTED -> QUEUED, which
   * are not published for them. A subscriber of either for agents' orders subscribes here too.
   */
  'orders.paidTogether': { orderIds: number[]; agentId: number }
  /**
   * A bulk order's one mobile money payment left pending (ADR 0039): `paid` when it succeeded (the money is
   * in the agent's wallet by then, in this transaction), false when it failed or expired.
   */
  'batch.paymentSettled': { transactionId: string; paid: boolean }
  /**
   * An admin is refunding a bulk order's mobile money payment, in the refund's transaction (ADR 0045):
   * a subscriber throws to refuse it (the batch's lines were paid from that money).
   */
  'batch.paymentRefunding': { transactionId: string }
  /** A paid order's money went back (a refund) or was taken back (a reversal, a dispute). */
  'order.moneyReturned': { orderId: number; why: 'refund' | 'reversal' }
  /** An order's delivery status changed (`from` may equal `to`: a worker's claim again). */
  'delivery.changed': DeliveryChange
  /**
   * An export made MANUAL in one statement the orders now in `order_exports` under `stamp`, past
   * `delivery.changed` (ADR 0021, 0023).
   */
  'orders.exported': { stamp: string }
  /**
   * A result-checker purchase was paid: its cards are allocated in the settlement's transaction. The
   * subscriber fills `outcome`; one left unhonoured (no card could be supplied) is refunded in full.
   */
  'voucher.paid': { payment: PaymentRow; settings: Settings; outcome: { honoured: boolean; details: Record<string, unknown> } }
  /** A paid result-checker purchase got `allocated` cards (at least one; the rest is being refunded), in the settlement's transaction. */
  'voucher.allocated': { payment: PaymentRow; allocated: number }
  /** A paid result-checker purchase's money went back in full (a refund) or was taken back (a reversal, a dispute). */
  'voucher.moneyReturned': { transactionId: string; why: 'refund' | 'reversal' }
}

/** What a subscriber may narrow an event to. */
export interface DomainEventScopes {
  'delivery.changed': DeliveryScope
}
