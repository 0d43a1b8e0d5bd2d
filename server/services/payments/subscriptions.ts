import type { Events } from '../events/index.ts'
import type { PaymentsService } from './index.ts'

/**
 * A delivery that failed for good gives the money back when the shop says so (wallet orders always),
 * decided in the same transaction as the FAILED status (ADR 0012, 0013).
 */
export function subscribePayments(events: Pick<Events, 'on'>, payments: Pick<PaymentsService, 'onDeliveryFailed'>): void {
  events.on(
    'delivery.changed',
    async ({ order, details }, { transaction }) => {
      await payments.onDeliveryFailed(order.id, `Delivery failed: ${details?.error ?? 'the vendor could not deliver'}`.slice(0, 500), { transaction })
    },
    { to: ['FAILED'] }
  )
}
