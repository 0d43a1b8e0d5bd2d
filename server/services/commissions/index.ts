import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import type { Settings } from '../settings/index.ts'
import { percentOf, toPesewas } from '../../lib/money.ts'

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
  // On every paid order's path: a named statement (ADR 0024).
  const run = preparedFor(sequelize)
  return {
    commissionFor,
    /** Inside the settlement transaction; a second call for the same order records nothing. Returns true when recorded. */
    async recordForOrder(order: CommissionOrder, settings: Settings, transaction: Transaction): Promise<boolean> {
      if (!settings.commissionEnabled || order.shop_id || order.parent_agent_id) return false
      const rows = await run(
        `INSERT INTO commissions (order_id, agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status)
         VALUES ($1, $2, $3, $4, $5, $6, 'PENDING')
         ON CONFLICT (order_id) DO NOTHING RETURNING id`,
        [order.id, order.agent_id, order.network, order.amount_pesewas, commissionFor(order.amount_pesewas, settings), settings.commissionType],
        transaction
      )
      return rows.length > 0
    },
    /** `recordForOrder` for many orders in one INSERT; returns the ids of the orders it recorded one for. */
    async recordForOrders(orders: CommissionOrder[], settings: Settings, transaction: Transaction): Promise<Set<number>> {
      const due = settings.commissionEnabled ? orders.filter((o) => !o.shop_id && !o.parent_agent_id) : []
      if (!due.length) return new Set()
      const rows = await sequelize.query<{ order_id: number }>(
        `INSERT INTO commissions (order_id, agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status)
         SELECT o, a, n, amt, c, :type, 'PENDING' FROM unnest(ARRAY[:id]::int[], ARRAY[:agent]::int[], ARRAY[:net]::text[], ARRAY[:amt]::int[], ARRAY[:c]::int[]) AS l(o, a, n, amt, c)
         ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
        {
          replacements: {
            type: settings.commissionType,
            id: due.map((o) => o.id),
            agent: due.map((o) => o.agent_id),
            net: due.map((o) => o.network),
            amt: due.map((o) => o.amount_pesewas),
            c: due.map((o) => commissionFor(o.amount_pesewas, settings))
          },
          type: QueryTypes.SELECT,
          transaction
        }
      )
      return new Set(rows.map((r) => Number(r.order_id)))
    }
  }
}
