import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { phoneVariants } from '../../lib/phone.ts'
import type { Identifier, RecoveryAccount } from './accounts.ts'

// The recovery capability's statements: finding the account, its one live code, and the new password.

/** The account's code under a row lock: its HMAC, the wrong tries so far, and whether it is still within its time. */
export interface LockedCode {
  codeHash: string
  attempts: number
  live: boolean
}

const SELECT = `SELECT u.id, u.email, coalesce(a.phone, u.phone) AS phone FROM users u LEFT JOIN agents a ON a.user_id = u.id`

export function createRecoveryQueries(sequelize: Sequelize) {
  const accounts = (where: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<RecoveryAccount>(`${SELECT} WHERE ${where}`, { replacements, type: QueryTypes.SELECT, transaction })
  const forUser = (sql: string, userId: number, transaction: Transaction) => sequelize.query(sql, { replacements: { userId }, transaction })

  return {
    /**
     * The account an identifier names, or null. A phone is the agent's (unique) first, then a user's
     * own phone when exactly one user has it: a number shared by two accounts names neither.
     */
    async account(id: Identifier): Promise<RecoveryAccount | null> {
      let rows: RecoveryAccount[]
      if (id.kind === 'email') rows = await accounts('lower(u.email) = :email LIMIT 2', { email: id.value })
      else {
        const phones = phoneVariants(id.value)
        rows = await accounts('a.phone IN (:phones) LIMIT 2', { phones })
        if (rows.length === 0) rows = await accounts('a.id IS NULL AND u.phone IN (:phones) LIMIT 2', { phones })
      }
      return rows.length === 1 ? { ...rows[0]!, phone: rows[0]!.phone ?? null } : null
    },
    accountById: async (userId: number): Promise<RecoveryAccount | null> => (await accounts('u.id = :userId', { userId }))[0] ?? null,
    /** Replaces any earlier code of the account: attempts start again, and so does its time. */
    saveCode: (userId: number, hash: string, ttlSeconds: number, transaction: Transaction) =>
      sequelize.query(
        `INSERT INTO password_reset_codes (user_id, code_hash, attempts, expires_at, created_at)
         VALUES (:userId, :hash, 0, now() + make_interval(secs => :ttl), now())
         ON CONFLICT (user_id) DO UPDATE SET code_hash = EXCLUDED.code_hash, attempts = 0, expires_at = EXCLUDED.expires_at, created_at = now()`,
        { replacements: { userId, hash, ttl: ttlSeconds }, transaction }
      ),
    async lockCode(userId: number, transaction: Transaction): Promise<LockedCode | null> {
      const [row] = await sequelize.query<{ code_hash: string; attempts: number; live: boolean }>(
        'SELECT code_hash, attempts, expires_at > now() AS live FROM password_reset_codes WHERE user_id = :userId FOR UPDATE',
        { replacements: { userId }, type: QueryTypes.SELECT, transaction }
      )
      return row ? { codeHash: row.code_hash, attempts: row.attempts, live: row.live } : null
    },
    dropCode: (userId: number, transaction: Transaction) => forUser('DELETE FROM password_reset_codes WHERE user_id = :userId', userId, transaction),
    countWrongTry: (userId: number, transaction: Transaction) =>
      forUser('UPDATE password_reset_codes SET attempts = attempts + 1 WHERE user_id = :userId', userId, transaction),
    setPassword: (userId: number, hash: string, transaction: Transaction) =>
      sequelize.query('UPDATE users SET password_hash = :hash, updated_at = now() WHERE id = :userId', { replacements: { hash, userId }, transaction })
  }
}
