import type { Sequelize, Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { balanceColumnOf, moveLockedBalance } from './locked-balance.ts'
import type { PaymentRow } from '../payments/provider.ts'
import { createWalletQueries, type EntryRow, type EntryType, type OrderDebit, type WalletPayment } from './queries.ts'

export interface PostInput {
  agentId: number
  type: EntryType
  /** Signed: a credit is > 0, a debit < 0. */
  amountPesewas: number
  reason: string
  actorUserId?: number | null
  paymentTransactionId?: string | null
  orderId?: number | null
  /** A bulk order's one debit for all its lines (ADR 0039). */
  batchId?: number | null
}

export const INSUFFICIENT_FUNDS = 'Insufficient wallet balance'
export const insufficientFunds = (balancePesewas: number) => new AppError(402, INSUFFICIENT_FUNDS, { balance: toGhs(balancePesewas) })

/**
 * The way money enters or leaves a wallet (an order's payment and debit: `payAndDebitOrder`), always inside the caller's transaction
 * (`moveLockedBalance`: the wallet row locked first, the entry before the balance). A debit the
 * balance does not cover throws before anything is written; a fenced entry that already exists (one
 * ORDER and one REFUND per order, one TOPUP per payment: unique indexes) leaves everything as it was
 * and answers `entry: null`. The column's CHECK (balance >= 0) is the last fence: the balance is
 * never negative and always the ledger's sum.
 */
export async function post(sequelize: Sequelize, input: PostInput, t: Transaction): Promise<{ entry: EntryRow | null; balancePesewas: number }> {
  return moveLockedBalance(sequelize, t, {
    agentId: input.agentId,
    column: 'balance_pesewas',
    amountPesewas: input.amountPesewas,
    refuse: (balance, after) => {
      if (after < 0) throw insufficientFunds(balance)
    },
    insertEntry: (after) =>
      createWalletQueries(sequelize).insertEntry(
        {
          agentId: input.agentId,
          type: input.type,
          amountPesewas: input.amountPesewas,
          afterPesewas: after,
          reason: input.reason,
          actorUserId: input.actorUserId ?? null,
          paymentTransactionId: input.paymentTransactionId ?? null,
          orderId: input.orderId ?? null,
          batchId: input.batchId ?? null
        },
        t
      )
  })
}

/**
 * A wallet order's payment row and its debit (ADR 0046): one statement, refused (402 with the balance,
 * read only then) when the wallet does not cover it; the caller's transaction then rolls the payment
 * row back with its order. Answers the payment row as written.
 */
export async function payAndDebitOrder(sequelize: Sequelize, payment: WalletPayment, debit: OrderDebit, t: Transaction): Promise<PaymentRow> {
  if (!Number.isSafeInteger(payment.amountPesewas) || payment.amountPesewas <= 0) throw new Error('a debit is a positive integer of pesewas')
  const { payment: written, debited } = await createWalletQueries(sequelize).payOrder(payment, debit, t)
  if (!debited) throw insufficientFunds(await balanceOf(sequelize, payment.agentId, t))
  return written
}

export const balanceOf = (sequelize: Sequelize, agentId: number, t?: Transaction): Promise<number> => balanceColumnOf(sequelize, agentId, 'balance_pesewas', t)
