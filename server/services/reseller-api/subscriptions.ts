import type { Events } from '../events/index.ts'
import type { AgentWebhooks } from './webhooks.ts'

/** Each payment or delivery status change of an agent's order reaches the agent's software, in the change's transaction. */
export function subscribeResellerApi(events: Pick<Events, 'on'>, webhooks: Pick<AgentWebhooks, 'onOrderStatusChange' | 'onOrdersStatusChange'>): void {
  events.on('order.settled', async ({ orderId, agentId }, { transaction }) => {
    if (agentId) await webhooks.onOrderStatusChange(orderId, { transaction })
  })
  // Lines paid together: the two events each line's single settlement reports (paid, queued).
  events.on('orders.paidTogether', async ({ orderIds }, { transaction }) => {
    await webhooks.onOrdersStatusChange(orderIds, 2, { transaction })
  })
  events.on(
    'delivery.changed',
    async ({ order, from, to, details }, { transaction }) => {
      // A claim taken again (its worker or pump lost before the vendor's answer) is no news: the agent heard PROCESSING at the first.
      if (from === 'PROCESSING' && to === 'PROCESSING' && details.attempts === 'increment') return
      if (order.agent_id) await webhooks.onOrderStatusChange(order.id, { transaction })
    },
    { agentOrdersOnly: true }
  )
}
