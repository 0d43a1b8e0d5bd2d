import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { preparedFor } from '../../../models/prepared.ts'
import { balanceColumnOf, moveLockedBalance } from './locked-balance.ts'

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
  /** A bulk order's one debit for all its lines (ADR 0039). */
  batchId?: number | null
}

export const INSUFFICIENT_FUNDS = 'Insufficient wallet balance'
export const insufficientFunds = (balancePesewas: number) => new AppError(402, INSUFFICIENT_FUNDS, { balance: toGhs(balancePesewas) })

/** A wallet_entries row as PostgreSQL returns it (bigint and numeric columns may arrive as text). */
export interface WalletEntryRecord {
  id: number | string
  agent_id: number
  type: EntryType
  amount_pesewas: number | string
  balance_after_pesewas: number | string
  reason: string
  actor_user_id: number | null
  payment_transaction_id: string | null
  order_id: number | null
  /** The bulk order whose one debit this is (ADR 0039). */
  batch_id?: number | null
  created_at: Date | string
}

export function toEntry(r: WalletEntryRecord): EntryRow {
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
    createdAt: new Date(r.created_at)
  }
}

/**
 * The way money enters or leaves a wallet (an order's debit: `debitOrder`), always inside the caller's transaction
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
    insertEntry: async (after) => {
      const [row] = await sequelize.query<WalletEntryRecord>(
        `INSERT INTO wallet_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, actor_user_id, payment_transaction_id, order_id, batch_id)
         VALUES (:agentId, :type, :amount, :after, :reason, :actor, :tid, :orderId, :batchId)
         ON CONFLICT DO NOTHING RETURNING *`,
        {
          replacements: {
            agentId: input.agentId,
            type: input.type,
            amount: input.amountPesewas,
            after,
            reason: input.reason,
            actor: input.actorUserId ?? null,
            tid: input.paymentTransactionId ?? null,
            orderId: input.orderId ?? null,
            batchId: input.batchId ?? null
          },
          type: QueryTypes.SELECT,
          transaction: t
        }
      )
      return row && toEntry(row)
    }
  })
}

/**
 * An order's debit (ADR 0046): one statement. The conditional UPDATE moves the balance only when it
 * covers the amount; it locks the row, and a concurrent movement of the same wallet makes it
 * re-check the floor against what that one left. The entry is written from the balance it returned.
 * No wallet row, or too little in it: no row comes back and nothing moved. The order's unique entry
 * (one ORDER per order) stays the fence against a second debit: a duplicate fails the statement.
 */
const DEBIT_ORDER = `WITH w AS (
    UPDATE wallets SET balance_pesewas = balance_pesewas - $2, updated_at = now()
    WHERE agent_id = $1 AND balance_pesewas >= $2 RETURNING balance_pesewas)
  INSERT INTO wallet_entries (agent_id, type, amount_pesewas, balance_after_pesewas, reason, actor_user_id, payment_transaction_id, order_id)
  SELECT $1, 'ORDER', -$2::bigint, w.balance_pesewas, $3, $4, $5, $6 FROM w RETURNING *`

export async function debitOrder(
  sequelize: Sequelize,
  input: Required<Pick<PostInput, 'agentId' | 'amountPesewas' | 'reason' | 'orderId'>> & Pick<PostInput, 'actorUserId' | 'paymentTransactionId'>,
  t: Transaction
): Promise<{ entry: EntryRow; balancePesewas: number }> {
  if (!Number.isSafeInteger(input.amountPesewas) || input.amountPesewas <= 0) throw new Error('a debit is a positive integer of pesewas')
  const [row] = await preparedFor(sequelize)<WalletEntryRecord>(
    DEBIT_ORDER,
    [input.agentId, input.amountPesewas, input.reason, input.actorUserId ?? null, input.paymentTransactionId ?? null, input.orderId],
    t
  )
  if (!row) throw insufficientFunds(await balanceOf(sequelize, input.agentId, t))
  const entry = toEntry(row)
  return { entry, balancePesewas: entry.balanceAfterPesewas }
}

export const balanceOf = (sequelize: Sequelize, agentId: number, t?: Transaction): Promise<number> => balanceColumnOf(sequelize, agentId, 'balance_pesewas', t)
