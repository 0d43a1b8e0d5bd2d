import type { Sequelize, Transaction } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { RefundHandler } from '../payments/refund.ts'
import type { RefundAnswer, RefundCall } from '../payments/provider.ts'
import { post } from './ledger.ts'
import { createWalletQueries } from './queries.ts'

interface RefundDeps {
  sequelize: Sequelize
  audit: AuditService
}

/**
 * Credits a wallet-paid order back, once (unique ledger entry per order and type): for refunds and
 * for deliveries that failed for good. An order not paid from the wallet is left alone. It needs only
 * the ledger, so the payments service gets it at construction, before the wallet service exists.
 */
export async function refundOrderToWallet(
  deps: RefundDeps,
  orderId: number,
  reason: string,
  ctx: Ctx = {}
): Promise<{ refunded: boolean; amount: number; balance: number | null }> {
  const { sequelize } = deps
  const run = async (t: Transaction) => {
    const debit = await createWalletQueries(sequelize).orderDebit(orderId, t)
    if (!debit) return { refunded: false, amount: 0, balance: null }
    const { amountPesewas } = debit
    const { entry, balancePesewas } = await post(
      sequelize,
      {
        agentId: debit.agentId,
        type: 'REFUND',
        amountPesewas,
        reason: String(reason || 'Refund').slice(0, 300),
        actorUserId: ctx.user?.id ?? null,
        paymentTransactionId: debit.paymentTransactionId,
        orderId
      },
      t
    )
    if (entry) {
      await deps.audit.record(
        {
          action: 'WALLET_REFUNDED',
          resource: 'ORDER',
          resourceId: orderId,
          severity: 'MEDIUM',
          details: { agentId: debit.agentId, amount: toGhs(amountPesewas), reason, balance: toGhs(balancePesewas) }
        },
        { ...ctx, transaction: t }
      )
    }
    return { refunded: !!entry, amount: toGhs(amountPesewas)!, balance: toGhs(balancePesewas) }
  }
  return ctx.transaction ? run(ctx.transaction) : sequelize.transaction(run)
}

/**
 * The refund path's handler for payments made from an agent's wallet: the money goes back to the
 * wallet. The ledger allows one REFUND entry per order, so a retried job never credits twice; a
 * refund already credited answers PROCESSED again.
 */
export function walletRefundHandler(deps: RefundDeps): RefundHandler {
  const { sequelize } = deps
  /**
   * A purchase without an order (checker cards): credited once per refund. The refund's id rides in
   * the entry's reason, which is unique per payment for such entries, so a retried job finds its entry.
   */
  async function creditPurchase(agentId: number, c: RefundCall): Promise<RefundAnswer> {
    const { entry } = await sequelize.transaction((t) =>
      post(
        sequelize,
        {
          agentId,
          type: 'REFUND',
          amountPesewas: c.amountPesewas,
          // Stryker disable next-line MethodExpression: a checker's refund reason is one of settlement's fixed texts (an admin's refund of a checker payment is refused, 409), all far below 300 characters; the cut only guards a new caller
          reason: `Refund #${c.refundId}: ${c.reason}`.slice(0, 300),
          paymentTransactionId: c.reference
        },
        t
      )
    )
    return { status: 'PROCESSED', extRefundId: `wallet-${c.refundId}`, message: entry ? 'Credited back to the wallet' : 'Already credited back to the wallet' }
  }
  return {
    async refund(c): Promise<RefundAnswer> {
      const row = await createWalletQueries(sequelize).paymentOfReference(c.reference)
      if (!row?.orderId && row?.purpose === 'voucher' && row.agentId) return creditPurchase(row.agentId, c)
      if (!row?.orderId) return { status: 'FAILED', message: 'No wallet order for this payment' }
      const done = await refundOrderToWallet(deps, row.orderId, c.reason)
      return {
        status: 'PROCESSED',
        extRefundId: `wallet-${c.refundId}`,
        message: done.refunded ? 'Credited back to the wallet' : 'Already credited back to the wallet'
      }
    }
  }
}
