import type { Transaction } from 'sequelize'
import type { Ctx } from '../context.ts'
import type { Settings } from '../settings/index.ts'
import type { PaymentRow } from './provider.ts'

/**
 * What settlement, refunds and gateway events tell other capabilities, inside the transaction that
 * made it true. Filled in after the payments service is made: the services told (the reseller API's
 * agent webhooks, shop margins) are made after payments.
 */
export interface PaymentHooks {
  /** An order's payment status changed (the agent webhooks enqueue their job here). */
  orderStatusChanged?: (orderId: number, ctx: { transaction: Transaction }) => Promise<void>
  /** A paid order's money went back (refund) or was taken back (reversal, dispute). */
  orderMoneyReturned?: (orderId: number, why: 'refund' | 'reversal', ctx: Ctx & { transaction: Transaction }) => Promise<void>
  /**
   * A paid result-checker purchase: its cards are allocated in the settlement's transaction.
   * `honoured: false` when no card could be supplied (settlement then refunds it in full).
   */
  voucherPaid?: (p: PaymentRow, ctx: Ctx & { transaction: Transaction }, settings: Settings) => Promise<{ honoured: boolean; details: Record<string, unknown> }>
}
