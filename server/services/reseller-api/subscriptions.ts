import type { Events } from '../events/index.ts'
import type { AgentWebhooks } from './webhooks.ts'

/** Each payment or delivery status change of an agent's order reaches the agent's software, in the change's transaction. */
export function subscribeResellerApi(events: Pick<Events, 'on'>, webhooks: Pick<AgentWebhooks, 'onOrderStatusChange' | 'onOrdersStatusChange'>): void {
  // An agent its order's own statement found without a webhook URL, in this transaction, gets nothing: no read of
  // the order for it (ADR 0075). Without that word (a gateway's settlement, a claim) the order is read as ever.
  events.on('order.settled', async ({ orderId, agentId, agentHooked }, { transaction }) => {
    if (agentId && agentHooked !== false) await webhooks.onOrderStatusChange(orderId, { transaction })
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
      if (order.agent_id && order.agent_hooked !== false) await webhooks.onOrderStatusChange(order.id, { transaction })
    },
    { agentOrdersOnly: true }
  )
}
