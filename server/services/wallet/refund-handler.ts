import { QueryTypes, type Sequelize } from 'sequelize'
import type { RefundHandler } from '../payments/refund.ts'
import type { RefundAnswer } from '../payments/provider.ts'
import type { WalletService } from './index.ts'

/**
 * The refund path's handler for payments made from an agent's wallet: the money goes back to the
 * wallet. The ledger allows one REFUND entry per order, so a retried job never credits twice; a
 * refund already credited answers PROCESSED again.
 */
export function walletRefundHandler(sequelize: Sequelize, wallet: Pick<WalletService, 'refundOrder'>): RefundHandler {
  return {
    async refund(c): Promise<RefundAnswer> {
      const [row] = await sequelize.query<{ order_id: number | null }>('SELECT order_id FROM payments WHERE transaction_id = :ref', {
        replacements: { ref: c.reference },
        type: QueryTypes.SELECT,
      })
      if (!row?.order_id) return { status: 'FAILED', message: 'No wallet order for this payment' }
      const done = await wallet.refundOrder(row.order_id, c.reason)
      return { status: 'PROCESSED', extRefundId: `wallet-${c.refundId}`, message: done.refunded ? 'Credited back to the wallet' : 'Already credited back to the wallet' }
    },
  }
}
