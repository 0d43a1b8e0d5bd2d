import type { Sequelize, Transaction } from 'sequelize'
import type { Ctx } from '../context.ts'
import type { PaymentRow, PaymentsService } from '../payments/index.ts'
import type { Settings } from '../settings/index.ts'
import { orderPaymentWith, refuseUncovered, type OrderPaymentCtes } from './ledger.ts'

/** A wallet order as its payment needs it, before the order's statement writes it (its id comes from that statement). */
export interface WalletOrder {
  agentId: number | null
  userId: number | null
  amountPesewas: number
  paymentTransactionId: string
}

/** What the order's statement wrote of the payment: its row, and whether the wallet covered the debit (`e` wrote its entry). */
export interface WrittenPayment {
  payment: PaymentRow
  debited: boolean
}

/**
 * An order paid from its agent's wallet inside the transaction that creates the order, in two steps. Written: the
 * payments row (gateway and method 'wallet'), the ORDER debit and its ledger entry, as CTEs of the order's own
 * statement (`orderPaymentWith`). Settled: a debit the balance did not cover throws (402), rolling the order back with
 * it; else settlement to SUCCESS through the same single function a gateway payment uses, so commission, SMS, audit
 * and whatever else settlement does (delivery, agent webhooks) follow exactly as for mobile money. Answers the settled
 * payment row, so the caller reads nothing back (ADR 0046).
 */
export function walletOrderPayment(deps: { sequelize: Sequelize; payments: PaymentsService }) {
  const { sequelize, payments } = deps
  return {
    written(order: WalletOrder, ctx: Ctx): OrderPaymentCtes {
      if (!order.agentId) throw new Error('wallet payment needs an agent order')
      return orderPaymentWith({
        transactionId: order.paymentTransactionId,
        amountPesewas: order.amountPesewas,
        email: ctx.user?.email ?? null,
        agentId: order.agentId,
        userId: order.userId,
        // While the simulator takes payments, wallet money came from simulated top-ups: never real data.
        simulated: payments.isSimulator,
        actorUserId: ctx.user?.id ?? null
      })
    },

    async settled(order: WalletOrder, written: WrittenPayment, ctx: Ctx & { transaction: Transaction }, settings: Settings): Promise<PaymentRow> {
      if (!written.debited) return refuseUncovered(sequelize, order.agentId!, ctx.transaction)
      // `before` and `settings` only spare settlement two reads of what it would read the same inside this transaction.
      // Stryker disable next-line ObjectLiteral: equivalent, the same row and settings are read again
      const out = await payments.settle(
        order.paymentTransactionId,
        { status: 'SUCCESS', message: 'Paid from wallet', amountPesewas: order.amountPesewas, currency: 'GHS' },
        ctx,
        { settings, before: written.payment }
      )
      if (!out.settled || !out.row) throw new Error('wallet payment did not settle')
      return out.row
    }
  }
}
