import type { Events } from '../events/index.ts'
import type { BulkService } from './index.ts'

/** The change that ends a batch's last line completes the batch and tells the agent's software, in that change's transaction. */
export function subscribeBulk(events: Pick<Events, 'on'>, bulk: Pick<BulkService, 'onLineEnded' | 'onPayment' | 'onPaymentRefunding'>): void {
  // A batch's one mobile money payment settled: its lines are paid and queued, or the batch cancelled, in that settlement.
  events.on('batch.paymentSettled', async ({ transactionId, paid }, ctx) => {
    await bulk.onPayment(transactionId, paid, ctx)
  })
  // Refunding that payment: refused once the lines were written (ADR 0045).
  events.on('batch.paymentRefunding', async ({ transactionId }, { transaction }) => {
    await bulk.onPaymentRefunding(transactionId, transaction)
  })
  events.on(
    'delivery.changed',
    async ({ order }, { transaction }) => {
      if (order.batch_id) await bulk.onLineEnded(order.batch_id, transaction)
    },
    { to: ['DELIVERED', 'FAILED', 'MANUAL'], agentOrdersOnly: true }
  )
}
