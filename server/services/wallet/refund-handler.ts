import { QueryTypes, type Sequelize } from 'sequelize'
import type { RefundHandler } from '../payments/refund.ts'
import type { RefundAnswer, RefundCall } from '../payments/provider.ts'
import { post } from './ledger.ts'
import type { WalletService } from './index.ts'

/**
 * The refund path's handler for payments made from an agent's wallet: the money goes back to the
 * wallet. The ledger allows one REFUND entry per order, so a retried job never credits twice; a
 * refund already credited answers PROCESSED again.
 */
export function walletRefundHandler(sequelize: Sequelize, wallet: Pick<WalletService, 'refundOrder'>): RefundHandler {
  /**
   * A purchase without an order (checker cards): credited once per refund. The refund's id rides in
   * the entry's reason, which is unique per payment for such entries, so a retried job finds its entry.
   */
  async function creditPurchase(agentId: number, c: RefundCall): Promise<RefundAnswer> {
    const { entry } = await sequelize.transaction((t) =>
      post(sequelize, { agentId, type: 'REFUND', amountPesewas: c.amountPesewas, reason: `Refund #${c.refundId}: ${c.reason}`.slice(0, 300), paymentTransactionId: c.reference }, t),
    )
    return { status: 'PROCESSED', extRefundId: `wallet-${c.refundId}`, message: entry ? 'Credited back to the wallet' : 'Already credited back to the wallet' }
  }
  return {
    async refund(c): Promise<RefundAnswer> {
      const [row] = await sequelize.query<{ order_id: number | null; agent_id: number | null; purpose: string }>('SELECT order_id, agent_id, purpose FROM payments WHERE transaction_id = :ref', {
        replacements: { ref: c.reference },
        type: QueryTypes.SELECT,
      })
      if (!row?.order_id && row?.purpose === 'voucher' && row.agent_id) return creditPurchase(row.agent_id, c)
      if (!row?.order_id) return { status: 'FAILED', message: 'No wallet order for this payment' }
      const done = await wallet.refundOrder(row.order_id, c.reason)
      return { status: 'PROCESSED', extRefundId: `wallet-${c.refundId}`, message: done.refunded ? 'Credited back to the wallet' : 'Already credited back to the wallet' }
    },
  }
}
