import type { Sequelize, Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { balanceColumnOf, moveLockedBalance } from './locked-balance.ts'
import { createWalletQueries, orderPaymentOfWritten, type EntryRow, type EntryType, type SettledOnWrite, type WalletPayment } from './queries.ts'

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
 * The way money enters or leaves a wallet (an order's payment and debit: `orderPaymentWith`, in the order's statement), always inside the caller's transaction
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

/** A wallet order's payment and debit as the order's own statement writes them: its CTEs over the order and their parameters. */
export interface OrderPaymentCtes {
  /**
   * The CTEs `p` (the payment, written settled), `w` (the wallet's balance), `e` (the ledger's entry), `c` (the
   * order's commission, written only with `e`), `txt` (the agent's text, likewise) and `pe` (settlement's audit entry,
   * likewise) over `source`, fed by `gate`, parameters from $first.
   */
  ctes: (source: string, gate: string, first: number) => string
  values: unknown[]
  /** Whether settlement decided the agent's text here: `txt` then wrote it, or there is none. */
  textDecided: boolean
  /** The order's delivery status as written paid: QUEUED for its vendor while delivery is automatic, else NOT_STARTED. */
  deliveryStatus: 'QUEUED' | 'NOT_STARTED'
}

/**
 * A wallet order's payment row and its debit, for the order's own statement (ADR 0046, 0065), written settled with the
 * order (ADR 0072), as settlement says (`settled`: `payments.settledOnWrite`). Whether the wallet
 * covered it is `e`'s row: the caller refuses with `refuseUncovered` when it wrote none, and its transaction rolls the
 * order and the payment back.
 */
export function orderPaymentWith(payment: WalletPayment, settled: SettledOnWrite): OrderPaymentCtes {
  if (!Number.isSafeInteger(payment.amountPesewas) || payment.amountPesewas <= 0) throw new Error('a debit is a positive integer of pesewas')
  const values = [
    payment.transactionId,
    payment.amountPesewas,
    payment.email,
    payment.agentId,
    payment.userId,
    payment.simulated,
    payment.actorUserId,
    settled.message,
    ...settled.commission,
    settled.text?.phone ?? null,
    settled.text?.message ?? null,
    ...settled.entry
  ]
  return { ctes: orderPaymentOfWritten, values, textDecided: settled.text !== undefined, deliveryStatus: settled.queue ? 'QUEUED' : 'NOT_STARTED' }
}

/** A wallet that did not cover its order's debit: 402 with the balance, read only then. */
export const refuseUncovered = async (sequelize: Sequelize, agentId: number, t?: Transaction): Promise<never> => {
  throw insufficientFunds(await balanceOf(sequelize, agentId, t))
}

export const balanceOf = (sequelize: Sequelize, agentId: number, t?: Transaction): Promise<number> => balanceColumnOf(sequelize, agentId, 'balance_pesewas', t)
