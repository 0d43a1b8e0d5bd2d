import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Role } from '../context.ts'

// The Users page's statements, and the typed camelCase rows they return.

/** A user with its agent profile, if any. */
export interface UserListed {
  id: number
  email: string
  name: string | null
  phone: string | null
  role: Role
  createdAt: Date
  agent: { id: number; name: string; phone: string; approved: boolean; paymentStatus: string | null } | null
}

/** Which users a page lists: a role, and an agent status ('rejected': not approved and the fee payment failed or expired). */
export interface UserFilter {
  role: Role | null
  agentStatus: 'approved' | 'pending' | 'rejected' | null
}

type Raw = Record<string, any>

const SELECT = `SELECT u.id, u.email, u.name, u.phone, u.role, u.created_at,
  a.id AS agent_id, a.name AS agent_name, a.phone AS agent_phone, a.approved AS agent_approved, a.payment_status AS agent_payment_status
  FROM users u LEFT JOIN agents a ON a.user_id = u.id`

const toUser = (r: Raw): UserListed => ({
  id: r.id,
  email: r.email,
  name: r.name ?? null,
  phone: r.phone ?? null,
  role: r.role,
  createdAt: new Date(r.created_at),
  agent:
    r.agent_id == null
      ? null
      : { id: r.agent_id, name: r.agent_name, phone: r.agent_phone, approved: !!r.agent_approved, paymentStatus: r.agent_payment_status ?? null }
})

const AGENT_STATUS_SQL = {
  approved: 'a.approved = true',
  pending: "a.id IS NOT NULL AND a.approved = false AND coalesce(a.payment_status, '') NOT IN ('FAILED','EXPIRED')",
  rejected: "a.approved = false AND a.payment_status IN ('FAILED','EXPIRED')"
} as const

function whereOf(f: UserFilter): string {
  const where: string[] = []
  if (f.role) where.push('u.role = :role')
  if (f.agentStatus) where.push(AGENT_STATUS_SQL[f.agentStatus])
  return where.length ? `WHERE ${where.join(' AND ')}` : ''
}

export function createUsersQueries(sequelize: Sequelize) {
  const q = (sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<Raw>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    async user(id: number, t?: Transaction): Promise<UserListed | null> {
      const [r] = await q(`${SELECT} WHERE u.id = :id`, { id }, t)
      return r ? toUser(r) : null
    },

    async countUsers(f: UserFilter): Promise<number> {
      const [r] = await q(`SELECT count(*) AS n FROM users u LEFT JOIN agents a ON a.user_id = u.id ${whereOf(f)}`, { role: f.role })
      return Number(r?.n ?? 0)
    },

    /** Newest first. */
    async users(f: UserFilter, page: { limit: number; offset: number }): Promise<UserListed[]> {
      const rows = await q(`${SELECT} ${whereOf(f)} ORDER BY u.created_at DESC, u.id DESC LIMIT :limit OFFSET :offset`, { role: f.role, ...page })
      return rows.map(toUser)
    },

    /** Users with an agent profile, by agent name. */
    async agentUsers(): Promise<(UserListed & { agent: NonNullable<UserListed['agent']> })[]> {
      const rows = await q(`${SELECT.replace('LEFT JOIN', 'JOIN')} WHERE u.role = 'AGENT' ORDER BY lower(a.name), u.id`, {})
      return rows.map(toUser) as (UserListed & { agent: NonNullable<UserListed['agent']> })[]
    }
  }
}
