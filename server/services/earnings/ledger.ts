import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { balanceColumnOf, moveLockedBalance } from '../wallet/locked-balance.ts'

export const EARNINGS_TYPES = ['MARGIN', 'MARGIN_REVERSAL', 'SUB_AGENT_MARGIN', 'SUB_AGENT_MARGIN_REVERSAL', 'PAYOUT', 'PAYOUT_RETURN', 'ADJUSTMENT'] as const
export type EarningsType = (typeof EARNINGS_TYPES)[number]

export interface EarningsRow {
  id: number
  agentId: number
  type: EarningsType
  amountPesewas: number
  balanceAfterPesewas: number
  reason: string
  orderId: number | null
  payoutId: number | null
  /** A shop's checker sale: the payment whose allocated cards earned this margin. */
  paymentTransactionId: string | null
  actorUserId: number | null
  createdAt: Date
}

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

export function toEarnings(r: Record<string, any>): EarningsRow {
  return {
    id: Number(r.id),
    agentId: r.agent_id,
    type: r.type,
    amountPesewas: Number(r.amount_pesewas),
    balanceAfterPesewas: Number(r.balance_after_pesewas),
    reason: r.reason,
    orderId: r.order_id ?? null,
    payoutId: r.payout_id == null ? null : Number(r.payout_id),
    paymentTransactionId: r.payment_transaction_id ?? null,
    actorUserId: r.actor_user_id ?? null,
    createdAt: new Date(r.created_at)
  }
}

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
    insertEntry: async (after) => {
      const [row] = await sequelize.query<Record<string, any>>(
        `INSERT INTO earnings_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, order_id, payout_id, payment_transaction_id, actor_user_id)
         VALUES (:agentId, :type, :amount, :after, :reason, :orderId, :payoutId, :tid, :actor)
         ON CONFLICT DO NOTHING RETURNING *`,
        {
          replacements: {
            agentId: input.agentId,
            type: input.type,
            amount: input.amountPesewas,
            after,
            reason: input.reason,
            orderId: input.orderId ?? null,
            payoutId: input.payoutId ?? null,
            tid: input.paymentTransactionId ?? null,
            actor: input.actorUserId ?? null
          },
          type: QueryTypes.SELECT,
          transaction: t
        }
      )
      return row && toEarnings(row)
    }
  })
}

export const earningsOf = (sequelize: Sequelize, agentId: number, t?: Transaction): Promise<number> =>
  balanceColumnOf(sequelize, agentId, 'earnings_pesewas', t)
