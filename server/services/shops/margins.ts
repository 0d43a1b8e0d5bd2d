import type { Transaction } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { EarningsService } from '../earnings/index.ts'
import type { ShopQueries, ShopSale } from './queries.ts'

/** The shop agent's margin on a shop order: credited once when delivered, taken back once on a refund or reversal (ADR 0020). */
export function createShopMargins(deps: { queries: ShopQueries; audit: AuditService; earnings: EarningsService }) {
  const { queries, audit, earnings } = deps

  /** Delivery reached DELIVERED or MANUAL: the shop order's margin, once, in that change's transaction. */
  async function creditMargin(order: ShopSale, t: Transaction) {
    const margin = order.shopMarginPesewas
    if (!order.shopId || !order.shopAgentId || !(margin > 0)) return null
    const { entry, balancePesewas } = await earnings.post(
      { type: 'MARGIN', agentId: order.shopAgentId, orderId: order.id, amountPesewas: margin, reason: `Shop margin on order #${order.id}` },
      t
    )
    if (entry) {
      await audit.record(
        {
          action: 'SHOP_MARGIN_CREDITED',
          resource: 'ORDER',
          resourceId: order.id,
          details: { shopId: order.shopId, agentId: order.shopAgentId, margin: toGhs(margin), earnings: toGhs(balancePesewas) }
        },
        { transaction: t }
      )
    }
    return entry
  }

  return {
    creditMargin,

    /** The orders export delivered these orders by hand (MANUAL through order_exports, ADR 0021): each shop order among them earns its margin, in the export's transaction. */
    async creditMarginsOfExport(stamp: string, t: Transaction) {
      for (const sale of await queries.shopSalesOfExport(stamp, t)) await creditMargin(sale, t)
    },

    /** A refund or reversal of a shop order whose margin was credited takes that margin back, once. */
    async reverseMargin(orderId: number, why: 'refund' | 'reversal', ctx: Ctx & { transaction: Transaction }) {
      const credited = await queries.creditedMargin(orderId, ctx.transaction)
      if (!credited) return null
      const amount = credited.amountPesewas
      const { entry, balancePesewas } = await earnings.post(
        {
          type: 'MARGIN_REVERSAL',
          agentId: credited.agentId,
          orderId,
          amountPesewas: -amount,
          reason: `Shop margin taken back: order #${orderId} ${why === 'refund' ? 'refunded' : 'reversed'}`
        },
        ctx.transaction
      )
      if (entry) {
        await audit.record(
          {
            action: 'SHOP_MARGIN_REVERSED',
            resource: 'ORDER',
            resourceId: orderId,
            severity: 'HIGH',
            details: { shopId: credited.shopId, agentId: credited.agentId, margin: toGhs(amount), why, earnings: toGhs(balancePesewas) }
          },
          ctx
        )
      }
      return entry
    }
  }
}
