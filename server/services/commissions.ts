import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Settings } from './settings.ts'
import { toPesewas } from '../lib/money.ts'

export interface CommissionOrder {
  id: number
  agent_id: number | null
  network: string
  amount_pesewas: number
  /** Issue 20: a shop order pays its agent the margin instead (ADR 0020: margin wins). */
  shop_id?: number | null
}

/**
 * Percentage of the order amount (rounded to the pesewa) or the fixed amount, per settings. A FIXED
 * commission never exceeds the order's profit (issue 15): the shop records no cost price, so the most
 * an order can yield is what was paid for it, and the commission is capped there.
 */
export function commissionFor(amountPesewas: number, s: Pick<Settings, 'commissionType' | 'commissionPercentage' | 'commissionFixedAmount'>): number {
  if (s.commissionType === 'FIXED') return Math.max(0, Math.min(toPesewas(s.commissionFixedAmount), Math.round(amountPesewas)))
  return Math.round((amountPesewas * Number(s.commissionPercentage)) / 100)
}

export type CommissionsService = ReturnType<typeof createCommissionsService>

/** Recording only (reports belong to commission-reports). One row per order: commissions.order_id is unique. */
export function createCommissionsService({ sequelize }: { sequelize: Sequelize }) {
  return {
    commissionFor,
    /** Inside the settlement transaction; a second call for the same order records nothing. Returns true when recorded. */
    async recordForOrder(order: CommissionOrder, settings: Settings, transaction: Transaction): Promise<boolean> {
      if (!settings.commissionEnabled || order.shop_id) return false
      const rows = await sequelize.query(
        `INSERT INTO commissions (order_id, agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status)
         VALUES (:orderId, :agentId, :network, :amount, :commission, :type, 'PENDING')
         ON CONFLICT (order_id) DO NOTHING RETURNING id`,
        {
          replacements: {
            orderId: order.id,
            agentId: order.agent_id,
            network: order.network,
            amount: order.amount_pesewas,
            commission: commissionFor(order.amount_pesewas, settings),
            type: settings.commissionType,
          },
          type: QueryTypes.SELECT,
          transaction,
        },
      )
      return rows.length > 0
    },
  }
}
