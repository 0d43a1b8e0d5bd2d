import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'

/** The two balances an agent's wallets row carries: what they buy with, and their shop earnings (ADR 0020). */
export type BalanceColumn = 'balance_pesewas' | 'earnings_pesewas'

/**
 * Moves one balance of an agent's wallets row by `amount`, for wallet and earnings ledgers alike,
 * inside the caller's transaction. The row is locked first (SELECT ... FOR UPDATE), so concurrent
 * movements of one agent's money queue and each sees what the previous one left; `refuse(balance)`
 * may throw before anything is written (a debit the balance does not cover). The entry is written
 * next by `insertEntry(after)`; when its fence (a unique index) says it already exists, nothing
 * moves and the answer is `entry: null`, so a retried caller is harmless.
 */
export async function moveLockedBalance<E>(
  sequelize: Sequelize,
  t: Transaction,
  m: {
    agentId: number
    column: BalanceColumn
    amountPesewas: number
    refuse: (balancePesewas: number, afterPesewas: number) => void
    insertEntry: (afterPesewas: number) => Promise<E | undefined>
  }
): Promise<{ entry: E | null; balancePesewas: number }> {
  if (!Number.isSafeInteger(m.amountPesewas) || m.amountPesewas === 0) throw new Error('amount must be a non-zero integer of pesewas')
  await sequelize.query('INSERT INTO wallets (agent_id) VALUES (:id) ON CONFLICT (agent_id) DO NOTHING', { replacements: { id: m.agentId }, transaction: t })
  const [row] = await sequelize.query<Record<BalanceColumn, string>>(`SELECT ${m.column} FROM wallets WHERE agent_id = :id FOR UPDATE`, {
    replacements: { id: m.agentId },
    type: QueryTypes.SELECT,
    transaction: t
  })
  const balance = Number(row![m.column])
  const after = balance + m.amountPesewas
  m.refuse(balance, after)
  const entry = await m.insertEntry(after)
  if (!entry) return { entry: null, balancePesewas: balance }
  // The CHECK (balance_pesewas >= 0) on the column stays the last fence for the wallet balance.
  await sequelize.query(`UPDATE wallets SET ${m.column} = :after, updated_at = now() WHERE agent_id = :id`, {
    replacements: { id: m.agentId, after },
    transaction: t
  })
  return { entry, balancePesewas: after }
}

export async function balanceColumnOf(sequelize: Sequelize, agentId: number, column: BalanceColumn, t?: Transaction): Promise<number> {
  // The USSD confirm screen and the dashboards read it: a named statement (ADR 0024).
  const [row] = await preparedFor(sequelize)<Record<BalanceColumn, string>>(`SELECT ${column} FROM wallets WHERE agent_id = $1`, [agentId], t)
  return row ? Number(row[column]) : 0
}
