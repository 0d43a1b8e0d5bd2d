import type { Events } from '../events/index.ts'
import type { WhatsappService } from './index.ts'

/** A chat's order that is delivered (or failed for good) sends the chat its receipt, queued in that change's transaction (ADR 0042). */
export function subscribeWhatsapp(events: Pick<Events, 'on'>, whatsapp: Pick<WhatsappService, 'onDeliveryChange'>): void {
  events.on(
    'delivery.changed',
    async ({ order, to }, { transaction }) => {
      await whatsapp.onDeliveryChange(order, to, transaction)
    },
    { to: ['DELIVERED', 'FAILED'], channels: ['whatsapp'] }
  )
}
