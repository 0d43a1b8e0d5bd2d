import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'

export const ENTRY_TYPES = ['TOPUP', 'ORDER', 'REFUND', 'ADJUSTMENT'] as const
export type EntryType = (typeof ENTRY_TYPES)[number]

export interface EntryRow {
  id: number
  agentId: number
  type: EntryType
  amountPesewas: number
  balanceAfterPesewas: number
  reason: string
  actorUserId: number | null
  paymentTransactionId: string | null
  orderId: number | null
  createdAt: Date
}

export interface PostInput {
  agentId: number
  type: EntryType
  /** Signed: a credit is > 0, a debit < 0. */
  amountPesewas: number
  reason: string
  actorUserId?: number | null
  paymentTransactionId?: string | null
  orderId?: number | null
}

export const INSUFFICIENT_FUNDS = 'Insufficient wallet balance'
export const insufficientFunds = (balancePesewas: number) => new AppError(402, INSUFFICIENT_FUNDS, { balance: balancePesewas / 100 })

export function toEntry(r: Record<string, any>): EntryRow {
  return {
    id: Number(r.id),
    agentId: r.agent_id,
    type: r.type,
    amountPesewas: Number(r.amount_pesewas),
    balanceAfterPesewas: Number(r.balance_after_pesewas),
    reason: r.reason,
    actorUserId: r.actor_user_id ?? null,
    paymentTransactionId: r.payment_transaction_id ?? null,
    orderId: r.order_id ?? null,
    createdAt: new Date(r.created_at),
  }
}

/**
 * The one way money enters or leaves a wallet, always inside the caller's transaction. The wallet row
 * is locked first (SELECT ... FOR UPDATE), so concurrent movements of one wallet queue up and each sees
 * the balance the previous one left; a debit the balance does not cover throws before anything is
 * written. The entry is inserted before the balance moves, and a fenced entry that already exists
 * (one ORDER and one REFUND per order, one TOPUP per payment: unique indexes) leaves everything as
 * it was and answers `entry: null`. The balance UPDATE is conditional and the column has
 * CHECK (balance >= 0) as further fences: the balance is never negative and always the ledger's sum.
 */
export async function post(sequelize: Sequelize, input: PostInput, t: Transaction): Promise<{ entry: EntryRow | null; balancePesewas: number }> {
  if (!Number.isSafeInteger(input.amountPesewas) || input.amountPesewas === 0) throw new Error('wallet amount must be a non-zero integer of pesewas')
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: t })
  await sequelize.query('INSERT INTO wallets (agent_id) VALUES (:id) ON CONFLICT (agent_id) DO NOTHING', { replacements: { id: input.agentId }, transaction: t })
  const [wallet] = await q<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id FOR UPDATE', { id: input.agentId })
  const balance = Number(wallet!.balance_pesewas)
  const after = balance + input.amountPesewas
  if (after < 0) throw insufficientFunds(balance)
  const [row] = await q<Record<string, any>>(
    `INSERT INTO wallet_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, actor_user_id, payment_transaction_id, order_id)
     VALUES (:agentId, :type, :amount, :after, :reason, :actor, :tid, :orderId)
     ON CONFLICT DO NOTHING RETURNING *`,
    {
      agentId: input.agentId,
      type: input.type,
      amount: input.amountPesewas,
      after,
      reason: input.reason,
      actor: input.actorUserId ?? null,
      tid: input.paymentTransactionId ?? null,
      orderId: input.orderId ?? null,
    },
  )
  if (!row) return { entry: null, balancePesewas: balance }
  const [moved] = await q<{ balance_pesewas: string }>(
    `UPDATE wallets SET balance_pesewas = balance_pesewas + :amount, updated_at = now()
     WHERE agent_id = :id AND balance_pesewas + :amount >= 0 RETURNING balance_pesewas`,
    { id: input.agentId, amount: input.amountPesewas },
  )
  if (!moved || Number(moved.balance_pesewas) !== after) throw new Error('wallet balance moved outside its lock')
  return { entry: toEntry(row), balancePesewas: after }
}

export async function balanceOf(sequelize: Sequelize, agentId: number, t?: Transaction): Promise<number> {
  const [row] = await sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
    replacements: { id: agentId },
    type: QueryTypes.SELECT,
    transaction: t,
  })
  return row ? Number(row.balance_pesewas) : 0
}
