import type { Events } from '../events/index.ts'
import type { SubAgentsService } from './index.ts'

/**
 * A parent's margin is credited when its sub-agent's order (or its sub-agent's shop sale) is
 * delivered, by a vendor, by hand or by an export, and taken back on a refund or reversal, each in
 * that change's transaction, once (ADR 0041).
 */
export function subscribeSubAgents(
  events: Pick<Events, 'on'>,
  subAgents: Pick<SubAgentsService, 'creditMargin' | 'creditMarginsOfExport' | 'reverseMargin'>
): void {
  const credit = async (
    { order }: { order: Parameters<SubAgentsService['creditMargin']>[0] },
    { transaction }: { transaction: Parameters<SubAgentsService['creditMargin']>[1] }
  ) => {
    await subAgents.creditMargin(order, transaction)
  }
  events.on('delivery.changed', credit, { to: ['DELIVERED', 'MANUAL'], agentOrdersOnly: true })
  events.on('delivery.changed', credit, { to: ['DELIVERED', 'MANUAL'], shopOrdersOnly: true })
  events.on('order.moneyReturned', async ({ orderId, why }, ctx) => {
    await subAgents.reverseMargin(orderId, why, ctx)
  })
  events.on('orders.exported', async ({ stamp }, { transaction }) => {
    await subAgents.creditMarginsOfExport(stamp, transaction)
  })
}
