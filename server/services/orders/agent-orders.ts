import Joi from 'joi'
import { Op, type Sequelize, type WhereOptions } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest } from '../../lib/errors.ts'
import { percentage, toGhs } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { Ctx } from '../context.ts'
import { deliveryFields } from '../delivery/present.ts'
import { NETWORKS } from '../../lib/vocabulary.ts'
import { createAgentOrderQueries } from './queries-agent.ts'

export const AGENT_ORDER_STATUSES = ['ALL', 'PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED', 'DELIVERED'] as const

export const agentOrdersQuery = Joi.object({
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20),
  search: Joi.string().trim().allow('').max(40).default(''),
  status: Joi.string()
    .trim()
    .uppercase()
    .valid(...AGENT_ORDER_STATUSES)
    .default('ALL'),
  network: Joi.string()
    .trim()
    .uppercase()
    .valid('ALL', ...NETWORKS)
    .default('ALL'),
  includeExported: Joi.boolean().truthy('1').falsy('0').default(false)
}).options({ stripUnknown: true })

export interface AgentOrder {
  id: number
  recipientNumber: string
  network: string
  dataSizeMB: number
  packageName: string | null
  amount: number | null
  paymentStatus: string
  /** What the agent sees: DELIVERED overrides the payment status (spec section 4). */
  displayStatus: string
  paymentTransactionId: string | null
  paymentPhoneNumber: string | null
  delivered: boolean
  deliveryStatus: string
  deliveryReference: string | null
  deliveryAttempts: number
  deliveryError: string | null
  exported: boolean
  channel: string
  createdAt: string
  updatedAt: string
}

function present(o: Record<string, any>): AgentOrder {
  const paymentStatus = String(o.paymentStatus ?? 'PENDING').toUpperCase()
  return {
    id: o.id,
    recipientNumber: o.recipientNumber,
    network: o.network,
    dataSizeMB: o.dataSizeMb,
    packageName: o.packageName ?? null,
    amount: toGhs(o.amountPesewas),
    paymentStatus,
    displayStatus: o.delivered ? 'DELIVERED' : paymentStatus,
    paymentTransactionId: o.paymentTransactionId ?? null,
    paymentPhoneNumber: o.paymentPhoneNumber ?? null,
    delivered: !!o.delivered,
    ...deliveryFields(o, 'public'),
    exported: !!o.exported,
    channel: o.channel ?? 'web',
    createdAt: new Date(o.createdAt).toISOString(),
    updatedAt: new Date(o.updatedAt).toISOString()
  }
}

export type AgentOrdersService = ReturnType<typeof createAgentOrdersService>

/** An agent's own orders (the My Orders table and the dashboard figures); nobody else's. */
export function createAgentOrdersService({ sequelize, models }: { sequelize: Sequelize; models: Models }) {
  const queries = createAgentOrderQueries(sequelize)
  const mine = (ctx: Ctx): WhereOptions => {
    const agent = requireActiveAgent(ctx, 'Your orders')
    return { [Op.or]: [{ agentId: agent.id }, { userId: ctx.user!.id }] }
  }

  return {
    async list(input: unknown, ctx: Ctx) {
      const own = mine(ctx)
      const { value: q, error } = agentOrdersQuery.validate(input ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const base: WhereOptions[] = [own]
      if (!q.includeExported) base.push({ exported: false })
      const filters: WhereOptions[] = [...base]
      if (q.status === 'DELIVERED') filters.push({ delivered: true })
      else if (q.status !== 'ALL') filters.push({ paymentStatus: q.status, delivered: false })
      if (q.network !== 'ALL') filters.push({ network: q.network })
      if (q.search) {
        const like = `%${q.search.replace(/[\\%_]/g, (c: string) => `\\${c}`)}%`
        const digits = q.search.replace(/\D/g, '')
        const or: WhereOptions[] = [{ network: { [Op.iLike]: like } }, { recipientNumber: { [Op.iLike]: like } }]
        // 0XXXXXXXXX and 233XXXXXXXXX are the same number.
        if (digits.startsWith('233') && digits.length > 3) or.push({ recipientNumber: { [Op.like]: `%0${digits.slice(3)}%` } })
        if (digits.startsWith('0') && digits.length > 1) or.push({ recipientNumber: { [Op.like]: `%233${digits.slice(1)}%` } })
        filters.push({ [Op.or]: or })
      }
      const [total, all, rows] = await Promise.all([
        models.OrderView.count({ where: { [Op.and]: filters } }),
        models.OrderView.count({ where: { [Op.and]: base } }),
        models.OrderView.findAll({
          where: { [Op.and]: filters },
          order: [
            ['createdAt', 'DESC'],
            ['id', 'DESC']
          ],
          limit: q.limit,
          offset: (q.page - 1) * q.limit
        })
      ])
      const totalPages = Math.max(1, Math.ceil(total / q.limit))
      return {
        orders: rows.map((r) => present(r.get({ plain: true }))),
        pagination: { page: q.page, limit: q.limit, total, totalPages, hasNext: q.page < totalPages, hasPrev: q.page > 1 },
        totalAll: all
      }
    },

    /** Dashboard figures: counts, money, the 5 latest orders and the split per network. */
    async summary(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Your orders')
      const userId = ctx.user!.id
      // The figures and the per-network counts in one pass over the agent's orders, beside the latest five.
      const [figures, recent] = await Promise.all([
        queries.figures(agent.id, userId),
        models.OrderView.findAll({
          where: { [Op.or]: [{ agentId: agent.id }, { userId }] },
          order: [
            ['createdAt', 'DESC'],
            ['id', 'DESC']
          ],
          limit: 5,
          // Plain rows: the dashboard renders on every request, and a model instance per order was a large part of its CPU.
          raw: true
        })
      ])
      const { total, success, delivered } = figures
      return {
        total,
        success,
        pending: figures.pending,
        failed: figures.failed,
        delivered,
        totalSpent: toGhs(figures.spentPesewas),
        dataMB: figures.dataMb,
        // Spec: rounded percentages, success/total and delivered/success.
        successRate: percentage(success, total),
        deliveryRate: percentage(delivered, success),
        byNetwork: figures.byNetwork,
        recent: recent.map((r) => present(r))
      }
    }
  }
}
