import type { Sequelize, Transaction } from 'sequelize'
import type { Settings } from '../settings/index.ts'
import { percentOf, toPesewas } from '../../lib/money.ts'
import { createCommissionQueries } from './queries.ts'

export { commissionOfPaid } from './queries.ts'

export interface CommissionOrder {
  id: number
  agent_id: number | null
  network: string
  amount_pesewas: number
  /** A shop order pays its agent the margin instead (ADR 0020: margin wins). */
  shop_id?: number | null
  /** A sub-agent's order pays its parent the margin instead (ADR 0041). */
  parent_agent_id?: number | null
}

/**
 * Percentage of the order amount (rounded to the pesewa) or the fixed amount, per settings. A FIXED
 * commission never exceeds the order's profit: the shop records no cost price, so the most
 * an order can yield is what was paid for it, and the commission is capped there.
 */
export function commissionFor(amountPesewas: number, s: Pick<Settings, 'commissionType' | 'commissionPercentage' | 'commissionFixedAmount'>): number {
  if (s.commissionType === 'FIXED') return Math.max(0, Math.min(toPesewas(s.commissionFixedAmount), Math.round(amountPesewas)))
  return percentOf(amountPesewas, s.commissionPercentage)
}

export type CommissionsService = ReturnType<typeof createCommissionsService>

/** Recording only (reports belong to commission-reports). One row per order: commissions.order_id is unique. */
export function createCommissionsService({ sequelize }: { sequelize: Sequelize }) {
  const q = createCommissionQueries(sequelize)
  return {
    commissionFor,
    /** Inside the settlement transaction; a second call for the same order records nothing. Returns true when recorded. */
    async recordForOrder(order: CommissionOrder, settings: Settings, transaction: Transaction): Promise<boolean> {
      if (!settings.commissionEnabled || order.shop_id || order.parent_agent_id) return false
      return q.insertOne(
        {
          orderId: order.id,
          agentId: order.agent_id,
          network: order.network,
          originalPesewas: order.amount_pesewas,
          commissionPesewas: commissionFor(order.amount_pesewas, settings),
          type: settings.commissionType
        },
        transaction
      )
    },
    /**
     * `commissionOfPaid`'s parameters for an order of `amountPesewas` paid under `settings`: what
     * `recordForOrder` would write for it, decided before the order's row is read back (ADR 0055).
     */
    ofPaid(amountPesewas: number, settings: Settings): [number | null, string, number] {
      return [settings.commissionEnabled ? commissionFor(amountPesewas, settings) : null, settings.commissionType, amountPesewas]
    },
    /** `recordForOrder` for many orders in one INSERT; returns the ids of the orders it recorded one for. */
    async recordForOrders(orders: CommissionOrder[], settings: Settings, transaction: Transaction): Promise<Set<number>> {
      const due = settings.commissionEnabled ? orders.filter((o) => !o.shop_id && !o.parent_agent_id) : []
      if (!due.length) return new Set()
      return q.insertMany(
        {
          type: settings.commissionType,
          orderIds: due.map((o) => o.id),
          agentIds: due.map((o) => o.agent_id),
          networks: due.map((o) => o.network),
          originalPesewas: due.map((o) => o.amount_pesewas),
          commissionPesewas: due.map((o) => commissionFor(o.amount_pesewas, settings))
        },
        transaction
      )
    }
  }
}
