import type { Sequelize, Transaction } from 'sequelize'
import type { Ctx } from '../context.ts'
import type { PaidOrder, PaymentRow, PaymentsService } from '../payments/index.ts'
import type { Settings } from '../settings/index.ts'
import { orderPaymentWith, refuseUncovered, type OrderPaymentCtes } from './ledger.ts'

/** A wallet order as its payment needs it, before the order's statement writes it (its id comes from that statement). */
export interface WalletOrder {
  agentId: number | null
  userId: number | null
  amountPesewas: number
  paymentTransactionId: string
  /** What the order is, for the agent's text: with them the order's statement writes it (ADR 0075). */
  dataSizeMb?: number
  network?: string
  recipientNumber?: string
}

/**
 * What the order's statement wrote: the payment's row, whether the wallet covered the debit (`e` wrote its entry), the
 * order as written paid (its row as pg gives it) and whether its commission was written (`c`).
 */
export interface WrittenPayment {
  payment: PaymentRow
  debited: boolean
  order: PaidOrder
  commissionRecorded: boolean
  /** The agent's text as the statement wrote it (null: none); undefined when the statement did not decide it. */
  textId?: number | null
  /** Whether the statement wrote settlement's PAYMENT_SUCCESS entry (`pe`): settlement's effects then record none. */
  entryWritten: boolean
}

/**
 * An order paid from its agent's wallet inside the transaction that creates the order, in two steps. Written: the
 * payments row (gateway and method 'wallet'), the ORDER debit and its ledger entry, as CTEs of the order's own
 * statement (`orderPaymentWith`), the order and its payment already settled, with the commission settlement would
 * write (ADR 0072). Settled: a debit the balance did not cover throws (402), rolling the order back with it; else
 * settlement's effects (`payments.settledAsWritten`: the text, delivery, the order.settled event and its agent
 * webhook, the audit entry) follow exactly as for mobile money. Answers the settled payment row, so the caller reads
 * nothing back (ADR 0046).
 */
export function walletOrderPayment(deps: { sequelize: Sequelize; payments: PaymentsService }) {
  const { sequelize, payments } = deps
  return {
    written(order: WalletOrder, ctx: Ctx, settings: Settings): OrderPaymentCtes {
      if (!order.agentId) throw new Error('wallet payment needs an agent order')
      // The agent paying is the one signed in: its phone is in hand, so its text is written with the order.
      const agent = ctx.user?.agent
      const own =
        agent?.id === order.agentId && order.dataSizeMb !== undefined && order.network !== undefined && order.recipientNumber !== undefined
          ? { agentPhone: agent.phone, dataSizeMb: order.dataSizeMb, network: order.network, recipientNumber: order.recipientNumber }
          : undefined
      return orderPaymentWith(
        {
          transactionId: order.paymentTransactionId,
          amountPesewas: order.amountPesewas,
          email: ctx.user?.email ?? null,
          agentId: order.agentId,
          userId: order.userId,
          // While the simulator takes payments, wallet money came from simulated top-ups: never real data.
          simulated: payments.isSimulator,
          actorUserId: ctx.user?.id ?? null
        },
        payments.settledOnWrite(
          order.amountPesewas,
          settings,
          { transactionId: order.paymentTransactionId, userId: order.userId, simulated: payments.isSimulator },
          ctx,
          own
        )
      )
    },

    /** A wallet that did not cover its order, the order's statement refused and kept nothing (ADR 0079): 402 with the balance. */
    uncovered: (agentId: number): Promise<never> => refuseUncovered(sequelize, agentId),

    async settled(order: WalletOrder, written: WrittenPayment, ctx: Ctx & { transaction: Transaction }, settings: Settings): Promise<PaymentRow> {
      if (!written.debited) return refuseUncovered(sequelize, order.agentId!, ctx.transaction)
      // The same settings the statement was written under: settlement's effects follow from them.
      return payments.settledAsWritten(
        written.payment,
        { order: written.order, commissionRecorded: written.commissionRecorded, textId: written.textId, entryWritten: written.entryWritten },
        ctx,
        settings
      )
    }
  }
}
