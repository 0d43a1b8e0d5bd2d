import type { Sequelize, Transaction } from 'sequelize'
import { type BalanceColumn, createWalletQueries } from './queries.ts'

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
  const q = createWalletQueries(sequelize)
  await q.ensureWallet(m.agentId, t)
  const balance = await q.lockBalance(m.agentId, m.column, t)
  const after = balance + m.amountPesewas
  m.refuse(balance, after)
  const entry = await m.insertEntry(after)
  if (!entry) return { entry: null, balancePesewas: balance }
  // The CHECK (balance_pesewas >= 0) on the column stays the last fence for the wallet balance.
  await q.setBalance(m.agentId, m.column, after, t)
  return { entry, balancePesewas: after }
}

export const balanceColumnOf = (sequelize: Sequelize, agentId: number, column: BalanceColumn, t?: Transaction): Promise<number> =>
  createWalletQueries(sequelize).balance(agentId, column, t)
