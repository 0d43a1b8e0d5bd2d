import type { Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { forbidden, notFound } from '../../lib/errors.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx, Role } from '../context.ts'
import { createUsersQueries, type UserFilter, type UserListed } from './queries.ts'

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

const present = (u: UserListed): AdminUser => ({ ...u, createdAt: u.createdAt.toISOString() })

export function createUsersAdminService({ sequelize, models, audit }: { sequelize: Sequelize; models: Models; audit: AuditService }) {
  const queries = createUsersQueries(sequelize)
  async function getUser(id: number, transaction?: Ctx['transaction']): Promise<AdminUser | null> {
    const u = await queries.user(id, transaction)
    return u ? present(u) : null
  }

  return {
    /** One page of users, newest first; filtering, counting and paging all happen in SQL. */
    async list(value: UsersListInput): Promise<{ users: AdminUser[]; pagination: Pagination }> {
      const filter: UserFilter = {
        role: value.role && value.role !== 'ALL' ? value.role : null,
        agentStatus: value.agentStatus && value.agentStatus !== 'all' ? value.agentStatus : null
      }
      const total = await queries.countUsers(filter)
      const totalPages = Math.max(1, Math.ceil(total / value.limit))
      const rows = await queries.users(filter, { limit: value.limit, offset: (value.page - 1) * value.limit })
      return {
        users: rows.map(present),
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
      const rows = await queries.agentUsers()
      return { agents: rows.map((r) => ({ id: r.id, email: r.email, name: r.agent.name, phone: r.agent.phone, agent: r.agent })) }
    }
  }
}
