import type { Events } from '../events/index.ts'
import type { ShopsService } from './index.ts'

/**
 * A shop order's margin is credited when it is delivered (by a vendor, by hand or by an export) and
 * taken back on a refund or reversal, each in that change's transaction (ADR 0020).
 */
export function subscribeShops(events: Pick<Events, 'on'>, shops: Pick<ShopsService, 'creditMargin' | 'creditMarginsOfExport' | 'reverseMargin'>): void {
  events.on(
    'delivery.changed',
    async ({ order }, { transaction }) => {
      const sale = {
        id: order.id,
        shopId: Number(order.shop_id ?? 0),
        shopAgentId: Number(order.shop_agent_id ?? 0),
        shopMarginPesewas: Number(order.shop_margin_pesewas ?? 0)
      }
      await shops.creditMargin(sale, transaction)
    },
    { to: ['DELIVERED', 'MANUAL'], shopOrdersOnly: true }
  )
  events.on('order.moneyReturned', async ({ orderId, why }, ctx) => {
    await shops.reverseMargin(orderId, why, ctx)
  })
  events.on('orders.exported', async ({ stamp }, { transaction }) => {
    await shops.creditMarginsOfExport(stamp, transaction)
  })
}
