import type { Sequelize, Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import type { Ctx } from '../context.ts'
import type { PaymentsService } from '../payments/index.ts'
import type { Settings } from '../settings/index.ts'
import { post } from './ledger.ts'

export interface WalletOrder {
  id: number
  agentId: number | null
  userId: number | null
  amountPesewas: number
  paymentTransactionId: string
}

/**
 * Pays an order from its agent's wallet inside the transaction that created the order: a payments row
 * (gateway and method 'wallet'), the ORDER debit on the ledger (which throws when the balance does
 * not cover it, rolling the order back with it), and settlement to SUCCESS through the same single
 * function a gateway payment uses, so commission, SMS, audit and whatever else settlement does
 * (delivery, agent webhooks) follow exactly as for mobile money.
 */
export async function payOrderFromWallet(
  deps: { sequelize: Sequelize; models: Models; payments: PaymentsService },
  order: WalletOrder,
  ctx: Ctx & { transaction: Transaction },
  settings: Settings
): Promise<void> {
  const { sequelize, models, payments } = deps
  if (!order.agentId) throw new Error('wallet payment needs an agent order')
  const t = ctx.transaction
  const tid = order.paymentTransactionId
  await models.Payment.create(
    {
      transactionId: tid,
      purpose: 'data',
      gateway: 'wallet',
      method: 'wallet',
      status: 'PENDING',
      amountPesewas: order.amountPesewas,
      payerPhone: null,
      payerNetwork: null,
      email: ctx.user?.email ?? null,
      orderId: order.id,
      agentId: order.agentId,
      userId: order.userId,
      details: {},
      lastCheckedAt: new Date(),
      // While the simulator takes payments, wallet money came from simulated top-ups: never real data.
      simulated: payments.isSimulator
    },
    { transaction: t }
  )
  if (payments.isSimulator) await sequelize.query('UPDATE orders SET simulated = true WHERE id = :id', { replacements: { id: order.id }, transaction: t })
  if (order.amountPesewas > 0) {
    await post(
      sequelize,
      {
        agentId: order.agentId,
        type: 'ORDER',
        amountPesewas: -order.amountPesewas,
        reason: `Order #${order.id}`,
        actorUserId: ctx.user?.id ?? null,
        paymentTransactionId: tid,
        orderId: order.id
      },
      t
    )
  }
  const out = await payments.settle(tid, { status: 'SUCCESS', message: 'Paid from wallet', amountPesewas: order.amountPesewas, currency: 'GHS' }, ctx, {
    settings
  })
  if (!out.settled) throw new Error('wallet payment did not settle')
}
