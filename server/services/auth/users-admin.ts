import { QueryTypes, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx, Role } from '../context.ts'

export const ROLES = ['PUBLIC', 'AGENT', 'ADMIN'] as const
/** Agent Status filter of the Users page. 'rejected' = not approved and the fee payment failed or expired. */
export const AGENT_STATUSES = ['approved', 'pending', 'rejected'] as const

/** A page of the Users list, checked at the edge (routes/admin-users/schema.ts); '' or ALL/all filter nothing. */
export interface UsersListInput {
  page: number
  limit: number
  role: (typeof ROLES)[number] | 'ALL' | ''
  agentStatus: (typeof AGENT_STATUSES)[number] | 'all' | ''
}

export interface AdminUserAgent {
  id: number
  name: string
  phone: string
  approved: boolean
  paymentStatus: string | null
}
export interface AdminUser {
  id: number
  email: string
  name: string | null
  phone: string | null
  role: Role
  createdAt: string
  agent: AdminUserAgent | null
}
export interface Pagination {
  page: number
  limit: number
  total: number
  totalPages: number
  hasNext: boolean
  hasPrev: boolean
}

const agentOf = (r: any): AdminUserAgent | null =>
  r.agent_id == null
    ? null
    : { id: r.agent_id, name: r.agent_name, phone: r.agent_phone, approved: !!r.agent_approved, paymentStatus: r.agent_payment_status ?? null }

const userOf = (r: any): AdminUser => ({
  id: r.id,
  email: r.email,
  name: r.name ?? null,
  phone: r.phone ?? null,
  role: r.role,
  createdAt: new Date(r.created_at).toISOString(),
  agent: agentOf(r)
})

const SELECT = `SELECT u.id, u.email, u.name, u.phone, u.role, u.created_at,
  a.id AS agent_id, a.name AS agent_name, a.phone AS agent_phone, a.approved AS agent_approved, a.payment_status AS agent_payment_status
  FROM users u LEFT JOIN agents a ON a.user_id = u.id`

export function createUsersAdminService({ sequelize, models, audit }: { sequelize: Sequelize; models: Models; audit: AuditService }) {
  async function getUser(id: number, transaction?: Ctx['transaction']): Promise<AdminUser | null> {
    const rows = await sequelize.query(`${SELECT} WHERE u.id = :id`, { replacements: { id }, type: QueryTypes.SELECT, transaction })
    return rows[0] ? userOf(rows[0]) : null
  }

  return {
    /** One page of users, newest first; filtering, counting and paging all happen in SQL. */
    async list(value: UsersListInput): Promise<{ users: AdminUser[]; pagination: Pagination }> {
      const where: string[] = []
      const rep: Record<string, unknown> = {}
      if (value.role && value.role !== 'ALL') {
        where.push('u.role = :role')
        rep.role = value.role
      }
      if (value.agentStatus === 'approved') where.push('a.approved = true')
      else if (value.agentStatus === 'pending')
        where.push("a.id IS NOT NULL AND a.approved = false AND coalesce(a.payment_status, '') NOT IN ('FAILED','EXPIRED')")
      else if (value.agentStatus === 'rejected') where.push("a.approved = false AND a.payment_status IN ('FAILED','EXPIRED')")
      const whereSql = where.length ? `WHERE ${where.join(' AND ')}` : ''
      const [countRow] = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM users u LEFT JOIN agents a ON a.user_id = u.id ${whereSql}`, {
        replacements: rep,
        type: QueryTypes.SELECT
      })
      const total = Number(countRow?.n ?? 0)
      const totalPages = Math.max(1, Math.ceil(total / value.limit))
      const rows = await sequelize.query(`${SELECT} ${whereSql} ORDER BY u.created_at DESC, u.id DESC LIMIT :limit OFFSET :offset`, {
        replacements: { ...rep, limit: value.limit, offset: (value.page - 1) * value.limit },
        type: QueryTypes.SELECT
      })
      return {
        users: rows.map(userOf),
        pagination: { page: value.page, limit: value.limit, total, totalPages, hasNext: value.page < totalPages, hasPrev: value.page > 1 }
      }
    },

    getUser,

    /** An admin sets another user's role; never their own (they could lock the shop out of its back office). */
    async setRole(id: number, value: { role: Role }, ctx: Ctx): Promise<{ message: string; user: AdminUser }> {
      if (ctx.user?.id === id) throw forbidden('You cannot change your own role')
      const t = await sequelize.transaction()
      try {
        const row = await models.User.findByPk(id, { transaction: t, lock: t.LOCK.UPDATE })
        if (!row) throw notFound('User not found')
        const from = row.get('role') as Role
        if (from !== value.role) {
          await row.update({ role: value.role }, { transaction: t })
          await audit.record(
            { action: 'USER_ROLE_CHANGED', resource: 'USER', resourceId: id, severity: 'HIGH', details: { email: row.get('email'), from, to: value.role } },
            { ...ctx, transaction: t }
          )
        }
        const user = (await getUser(id, t))!
        await t.commit()
        return { message: 'User role updated successfully', user }
      } catch (err) {
        await t.rollback()
        throw err
      }
    },

    /** Users with an agent profile (messaging recipients): id is the user id. */
    async listAgents(): Promise<{ agents: Array<{ id: number; email: string; name: string; phone: string; agent: AdminUserAgent }> }> {
      const rows = await sequelize.query<any>(`${SELECT.replace('LEFT JOIN', 'JOIN')} WHERE u.role = 'AGENT' ORDER BY lower(a.name), u.id`, {
        type: QueryTypes.SELECT
      })
      return { agents: rows.map((r) => ({ id: r.id, email: r.email, name: r.agent_name, phone: r.agent_phone, agent: agentOf(r)! })) }
    }
  }
}
