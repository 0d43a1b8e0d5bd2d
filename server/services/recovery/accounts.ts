import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { normalizePhone, phoneVariants } from '../../lib/phone.ts'

export interface RecoveryAccount {
  id: number
  email: string
  /** Where codes and notices go: the agent's phone, else the user's. */
  phone: string | null
}

export type Identifier = { kind: 'email'; value: string } | { kind: 'phone'; value: string }

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** A phone number (digits, spaces, dashes, a leading +) or an email; null when it is neither. */
export function parseIdentifier(raw: string): Identifier | null {
  const text = raw.trim()
  if (text.includes('@')) return EMAIL_RE.test(text) && text.length <= 254 ? { kind: 'email', value: text.toLowerCase() } : null
  if (!/^\+?[\d\s-]+$/.test(text)) return null
  const phone = normalizePhone(text)
  return phone.length >= 9 && phone.length <= 12 ? { kind: 'phone', value: phone } : null
}

/** The key the per-identifier limit counts under: the same for both spellings of a number. */
export const identifierKey = (id: Identifier) => `${id.kind}:${id.value}`

const SELECT = `SELECT u.id, u.email, coalesce(a.phone, u.phone) AS phone FROM users u LEFT JOIN agents a ON a.user_id = u.id`

/**
 * The account an identifier names, or null. A phone is the agent's (unique) first, then a user's
 * own phone when exactly one user has it: a number shared by two accounts names neither.
 */
export async function findAccount(sequelize: Sequelize, id: Identifier, transaction?: Transaction): Promise<RecoveryAccount | null> {
  const q = (where: string, replacements: Record<string, unknown>) =>
    sequelize.query<{ id: number; email: string; phone: string | null }>(`${SELECT} WHERE ${where} LIMIT 2`, {
      replacements,
      type: QueryTypes.SELECT,
      transaction
    })
  let rows: { id: number; email: string; phone: string | null }[]
  if (id.kind === 'email') rows = await q('lower(u.email) = :email', { email: id.value })
  else {
    const phones = phoneVariants(id.value)
    rows = await q('a.phone IN (:phones)', { phones })
    if (rows.length === 0) rows = await q('a.id IS NULL AND u.phone IN (:phones)', { phones })
  }
  return rows.length === 1 ? { ...rows[0]!, phone: rows[0]!.phone ?? null } : null
}

export async function findAccountById(sequelize: Sequelize, userId: number, transaction?: Transaction) {
  const rows = await sequelize.query<{ id: number; email: string; phone: string | null }>(`${SELECT} WHERE u.id = :userId`, {
    replacements: { userId },
    type: QueryTypes.SELECT,
    transaction
  })
  return (rows[0] as RecoveryAccount | undefined) ?? null
}
