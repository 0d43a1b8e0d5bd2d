import type { Events } from '../events/index.ts'
import type { BulkService } from './index.ts'

/** The change that ends a batch's last line completes the batch and tells the agent's software, in that change's transaction. */
export function subscribeBulk(events: Pick<Events, 'on'>, bulk: Pick<BulkService, 'onLineEnded'>): void {
  events.on('delivery.changed', async ({ order }, { transaction }) => {
    if (order.batch_id) await bulk.onLineEnded(order.batch_id, transaction)
  }, { to: ['DELIVERED', 'FAILED', 'MANUAL'], agentOrdersOnly: true })
}
