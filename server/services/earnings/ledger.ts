import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'

export const EARNINGS_TYPES = ['MARGIN', 'MARGIN_REVERSAL', 'PAYOUT', 'PAYOUT_RETURN', 'ADJUSTMENT'] as const
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
  actorUserId?: number | null
}

export const INSUFFICIENT_EARNINGS = 'Not enough available earnings'
export const insufficientEarnings = (availablePesewas: number) => new AppError(402, INSUFFICIENT_EARNINGS, { available: availablePesewas / 100 })

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
    actorUserId: r.actor_user_id ?? null,
    createdAt: new Date(r.created_at),
  }
}

/**
 * The one way an agent's earnings move, inside the caller's transaction (ADR 0020). It locks the
 * agent's wallets row (the same lock as wallet movements), so concurrent movements queue and each sees
 * the balance the previous one left. A PAYOUT takes only what is available and throws otherwise,
 * before anything is written; a MARGIN_REVERSAL may leave the balance below zero (a refund after
 * the margin was paid out), which later margins make up. A fenced entry that already exists (one
 * MARGIN and one MARGIN_REVERSAL per order, one PAYOUT and one PAYOUT_RETURN per payout) changes
 * nothing and answers `entry: null`, so callers can run twice (a webhook delivered three times).
 */
export async function postEarnings(sequelize: Sequelize, input: EarningsInput, t: Transaction): Promise<{ entry: EarningsRow | null; balancePesewas: number }> {
  if (!Number.isSafeInteger(input.amountPesewas) || input.amountPesewas === 0) throw new Error('earnings amount must be a non-zero integer of pesewas')
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: t })
  await sequelize.query('INSERT INTO wallets (agent_id) VALUES (:id) ON CONFLICT (agent_id) DO NOTHING', { replacements: { id: input.agentId }, transaction: t })
  const [wallet] = await q<{ earnings_pesewas: string }>('SELECT earnings_pesewas FROM wallets WHERE agent_id = :id FOR UPDATE', { id: input.agentId })
  const balance = Number(wallet!.earnings_pesewas)
  const after = balance + input.amountPesewas
  if (input.type === 'PAYOUT' && after < 0) throw insufficientEarnings(Math.max(0, balance))
  const [row] = await q<Record<string, any>>(
    `INSERT INTO earnings_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, order_id, payout_id, actor_user_id)
     VALUES (:agentId, :type, :amount, :after, :reason, :orderId, :payoutId, :actor)
     ON CONFLICT DO NOTHING RETURNING *`,
    {
      agentId: input.agentId,
      type: input.type,
      amount: input.amountPesewas,
      after,
      reason: input.reason,
      orderId: input.orderId ?? null,
      payoutId: input.payoutId ?? null,
      actor: input.actorUserId ?? null,
    },
  )
  if (!row) return { entry: null, balancePesewas: balance }
  await sequelize.query('UPDATE wallets SET earnings_pesewas = :after, updated_at = now() WHERE agent_id = :id', {
    replacements: { id: input.agentId, after },
    transaction: t,
  })
  return { entry: toEarnings(row), balancePesewas: after }
}

export async function earningsOf(sequelize: Sequelize, agentId: number, t?: Transaction): Promise<number> {
  const [row] = await sequelize.query<{ earnings_pesewas: string }>('SELECT earnings_pesewas FROM wallets WHERE agent_id = :id', {
    replacements: { id: agentId },
    type: QueryTypes.SELECT,
    transaction: t,
  })
  return row ? Number(row.earnings_pesewas) : 0
}
