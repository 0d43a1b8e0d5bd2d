import type { Sequelize, Transaction } from 'sequelize'
import type { Ctx } from '../context.ts'
import type { PaymentRow, PaymentsService } from '../payments/index.ts'
import type { Settings } from '../settings/index.ts'
import { payAndDebitOrder } from './ledger.ts'
import { createWalletQueries } from './queries.ts'

export interface WalletOrder {
  id: number
  agentId: number | null
  userId: number | null
  amountPesewas: number
  paymentTransactionId: string
  /** The order was written already marked simulated: no UPDATE of it here. */
  marked?: boolean
}

/**
 * Pays an order from its agent's wallet inside the transaction that created the order: a payments row
 * (gateway and method 'wallet'), the ORDER debit on the ledger (which throws when the balance does
 * not cover it, rolling the order back with it), and settlement to SUCCESS through the same single
 * function a gateway payment uses, so commission, SMS, audit and whatever else settlement does
 * (delivery, agent webhooks) follow exactly as for mobile money. Answers the settled payment row, so
 * the caller reads nothing back (ADR 0046).
 */
export async function payOrderFromWallet(
  deps: { sequelize: Sequelize; payments: PaymentsService },
  order: WalletOrder,
  ctx: Ctx & { transaction: Transaction },
  settings: Settings
): Promise<PaymentRow> {
  const { sequelize, payments } = deps
  if (!order.agentId) throw new Error('wallet payment needs an agent order')
  const t = ctx.transaction
  const tid = order.paymentTransactionId
  // While the simulator takes payments, wallet money came from simulated top-ups: never real data.
  const simulated = payments.isSimulator
  const q = createWalletQueries(sequelize)
  // The payment row and the debit in one statement; a wallet that does not cover it throws (402).
  const written = await payAndDebitOrder(
    sequelize,
    {
      transactionId: tid,
      amountPesewas: order.amountPesewas,
      email: ctx.user?.email ?? null,
      orderId: order.id,
      agentId: order.agentId,
      userId: order.userId,
      simulated
    },
    { reason: `Order #${order.id}`, actorUserId: ctx.user?.id ?? null },
    t
  )
  // Its one caller (orders/place.ts) writes the order already marked (`marked: true`), so `simulated || !order.marked`
  // and `simulated && order.marked` mark only orders written simulated anyway. Not `true`: that would mark real ones.
  // Stryker disable next-line LogicalOperator,BooleanLiteral: equivalent while every caller writes the order marked
  if (simulated && !order.marked) await q.markOrderSimulated(order.id, t)
  // `before` and `settings` only spare settlement two reads of what it would read the same inside this transaction.
  // Stryker disable next-line ObjectLiteral: equivalent, the same row and settings are read again
  const out = await payments.settle(tid, { status: 'SUCCESS', message: 'Paid from wallet', amountPesewas: order.amountPesewas, currency: 'GHS' }, ctx, {
    settings,
    before: written
  })
  if (!out.settled || !out.row) throw new Error('wallet payment did not settle')
  return out.row
}
