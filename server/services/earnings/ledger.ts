import type { Sequelize, Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { balanceColumnOf, moveLockedBalance } from '../wallet/locked-balance.ts'
import { createEarningsQueries, type EarningsRow, type EarningsType } from './queries.ts'

export interface EarningsInput {
  agentId: number
  type: EarningsType
  /** Signed: a credit is > 0, a debit < 0. */
  amountPesewas: number
  reason: string
  orderId?: number | null
  payoutId?: number | null
  paymentTransactionId?: string | null
  actorUserId?: number | null
}

export const INSUFFICIENT_EARNINGS = 'Not enough available earnings'
export const insufficientEarnings = (availablePesewas: number) => new AppError(402, INSUFFICIENT_EARNINGS, { available: toGhs(availablePesewas) })

/**
 * The one way an agent's earnings move, inside the caller's transaction (ADR 0020), through the same
 * locked wallets row as wallet movements (`moveLockedBalance`). A PAYOUT takes only what is available
 * and throws otherwise, before anything is written; a MARGIN_REVERSAL may leave the balance below
 * zero (a refund after the margin was paid out), which later margins make up. A fenced entry that
 * already exists (one MARGIN and one MARGIN_REVERSAL per order, one PAYOUT and one PAYOUT_RETURN per
 * payout, one MARGIN per shop checker payment) changes nothing and answers `entry: null`, so callers can run twice (a webhook delivered
 * three times).
 */
export async function postEarnings(sequelize: Sequelize, input: EarningsInput, t: Transaction): Promise<{ entry: EarningsRow | null; balancePesewas: number }> {
  return moveLockedBalance(sequelize, t, {
    agentId: input.agentId,
    column: 'earnings_pesewas',
    amountPesewas: input.amountPesewas,
    refuse: (balance, after) => {
      if (input.type === 'PAYOUT' && after < 0) throw insufficientEarnings(Math.max(0, balance))
    },
    insertEntry: (after) =>
      createEarningsQueries(sequelize).insertEntry(
        {
          agentId: input.agentId,
          type: input.type,
          amountPesewas: input.amountPesewas,
          afterPesewas: after,
          reason: input.reason,
          orderId: input.orderId ?? null,
          payoutId: input.payoutId ?? null,
          paymentTransactionId: input.paymentTransactionId ?? null,
          actorUserId: input.actorUserId ?? null
        },
        t
      )
  })
}

export const earningsOf = (sequelize: Sequelize, agentId: number, t?: Transaction): Promise<number> =>
  balanceColumnOf(sequelize, agentId, 'earnings_pesewas', t)
