import type { Sequelize, Transaction } from 'sequelize'
import { AppError, conflict } from '../../lib/errors.ts'
import { ghsText, toGhs } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import type { Events } from '../events/index.ts'
import { balanceOf, post as postWalletEntry } from '../wallet/ledger.ts'
import type { PaymentRow } from './provider.ts'
import { createRefundQueries } from './queries-refund.ts'

/**
 * A payment whose settlement credited an agent's wallet (a top-up, a bulk order's mobile money
 * payment: settle.ts) is refunded out of that wallet (ADR 0045): the refund's transaction debits the
 * wallet by the amount going back, under the wallet row's lock, or refuses the refund when the balance
 * no longer covers it. Otherwise the gateway would give the money back while the wallet kept it.
 * A bulk order's payment whose lines were written is refused by the bulk capability (its lines are
 * refunded one by one instead). Answers what goes into the refund's audit entry; {} for other payments.
 */
export async function takeBackWalletCredit(
  deps: { sequelize: Sequelize; events: Pick<Events, 'publish'> },
  p: PaymentRow,
  amountPesewas: number,
  ctx: Ctx & { transaction: Transaction }
): Promise<Record<string, unknown>> {
  if ((p.purpose !== 'wallet_topup' && p.purpose !== 'batch') || !p.agent_id) return {}
  const t = ctx.transaction
  // Settlement credited nothing (a late payment it could not honour): there is nothing to take back.
  if (!(await createRefundQueries(deps.sequelize).walletCredited(p.transaction_id, p.agent_id, t))) return {}
  if (p.purpose === 'batch') await deps.events.publish('batch.paymentRefunding', { transactionId: p.transaction_id }, ctx)
  const what = p.purpose === 'batch' ? 'bulk order payment' : 'top-up'
  try {
    const { entry, balancePesewas } = await postWalletEntry(
      deps.sequelize,
      {
        agentId: p.agent_id,
        type: 'ADJUSTMENT',
        amountPesewas: -amountPesewas,
        reason: `Refund of the ${what} ${p.transaction_id} to the paying ${p.method === 'card' ? 'card' : 'phone'}`,
        actorUserId: ctx.user?.id ?? null,
        paymentTransactionId: p.transaction_id
      },
      t
    )
    if (!entry) throw conflict('This payment has already been refunded')
    return { walletDebited: toGhs(amountPesewas), walletBalance: toGhs(balancePesewas) }
  } catch (err) {
    if ((err as { status?: number }).status !== 402) throw err
    const balance = await balanceOf(deps.sequelize, p.agent_id, t)
    throw new AppError(
      409,
      `The wallet holds ${ghsText(balance)}, less than the ${ghsText(amountPesewas)} this ${what} put in: what was spent from it cannot be refunded`,
      { balance: toGhs(balance) }
    )
  }
}
