import type { Sequelize, Transaction } from 'sequelize'
import { conflict, forbidden, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import { parseId, requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { EarningsService } from '../earnings/index.ts'
import type { PackagesService } from '../packages/index.ts'
import { subAgentPriceOf, type PricingService } from '../pricing/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { ceilingOf } from '../shops/rules.ts'
import { checkPriceChanges, writePriceChanges } from '../pricing/price-rows.ts'
import { newInviteCode } from './invites.ts'
import { createSubAgentQueries, type SubAgentState } from './queries.ts'

const NOT_YOUR_SUB_AGENT = 'Sub-agent not found'

/** One package on the parent's price editor (GHS). */
export interface SubAgentPriceLine {
  packageId: number
  network: string
  name: string
  sizeMB: number
  /** What the parent itself pays: the lowest it may set. */
  floor: number
  ceiling: number
  /** What the parent saved, or null (sub-agents then pay the first tier's price, held inside the limits). */
  saved: number | null
  /** What its sub-agents pay now. */
  price: number
  margin: number
}

const statusOf = (r: SubAgentState) =>
  r.suspendedByParentAt ? 'SUSPENDED' : r.paymentStatus !== 'SUCCESS' ? 'FEE_UNPAID' : r.approved ? 'ACTIVE' : 'AWAITING_APPROVAL'

export type SubAgentsService = ReturnType<typeof createSubAgentsService>

/**
 * Sub-agents (ADR 0041): an agent of a tier that may invite hands out a link; whoever registers through
 * it buys at the price the parent sets (between the parent's own price and the markup ceiling), and the
 * parent earns the difference when each bundle is delivered, once, taken back on a refund.
 */
export function createSubAgentsService(deps: {
  sequelize: Sequelize
  audit: AuditService
  settings: SettingsService
  packages: PackagesService
  pricing: PricingService
  earnings: EarningsService
}) {
  const { sequelize, audit, settings, packages, pricing } = deps
  const queries = createSubAgentQueries(sequelize)

  async function priceLines(parentId: number): Promise<SubAgentPriceLine[]> {
    const list = await packages.listActive()
    const [own, base, s, saved] = await Promise.all([
      pricing.agentPrices(parentId, list),
      pricing.tierPrices(list.map((p) => p.id)),
      settings.getFresh(),
      queries.savedPrices(parentId)
    ])
    return list.map((p) => {
      const floor = own.get(p.id)!.pricePesewas
      const price = subAgentPriceOf(saved.get(p.id) ?? null, base(null, p), floor, s)
      return {
        packageId: p.id,
        network: p.network,
        name: packages.present(p).name,
        sizeMB: p.sizeMb,
        floor: toGhs(floor)!,
        ceiling: toGhs(ceilingOf(floor, s))!,
        saved: toGhs(saved.get(p.id) ?? null),
        price: toGhs(price)!,
        margin: toGhs(price - floor)!
      }
    })
  }

  async function subAgentsOf(parentId: number) {
    const rows = await queries.subAgentsOf(parentId)
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      phone: r.phone,
      status: statusOf(r),
      joinedAt: new Date(r.createdAt).toISOString(),
      sales: r.sales,
      salesAmount: toGhs(r.amountPesewas)!,
      lastOrderAt: r.lastOrderAt ? new Date(r.lastOrderAt).toISOString() : null,
      earned: toGhs(r.earnedPesewas)!
    }))
  }

  /** The parent's own sub-agent, locked for the change; 404 for anyone else's. */
  async function ownSubAgent(parentId: number, rawId: unknown, t: Transaction) {
    const id = parseId(rawId, 'sub-agent')
    const row = await queries.ownSubAgentForUpdate(parentId, id, t)
    if (!row) throw notFound(NOT_YOUR_SUB_AGENT)
    return row
  }

  /** Delivery reached DELIVERED or MANUAL: the parent's margin on a sub-agent's order, once, in that change's transaction. */
  async function creditMargin(order: { id: number; parent_agent_id?: number | null; parent_margin_pesewas?: number | string | null }, t: Transaction) {
    return creditParent(order.id, order.parent_agent_id ?? null, Number(order.parent_margin_pesewas ?? 0), t)
  }

  /** The parent's margin on one order, once, with its audit entry, in `t`. */
  async function creditParent(orderId: number, parentAgentId: number | null, margin: number, t: Transaction) {
    if (!parentAgentId || !(margin > 0)) return null
    const { entry, balancePesewas } = await deps.earnings.post(
      { type: 'SUB_AGENT_MARGIN', agentId: parentAgentId, orderId, amountPesewas: margin, reason: `Sub-agent margin on order #${orderId}` },
      t
    )
    if (entry) {
      await audit.record(
        {
          action: 'SUB_AGENT_MARGIN_CREDITED',
          resource: 'ORDER',
          resourceId: orderId,
          details: { parentAgentId, margin: toGhs(margin), earnings: toGhs(balancePesewas) }
        },
        { transaction: t }
      )
    }
    return entry
  }

  return {
    creditMargin,

    /** The export delivered these orders by hand (ADR 0021): each sub-agent order among them earns its parent's margin, in the export's transaction. */
    async creditMarginsOfExport(stamp: string, t: Transaction) {
      for (const r of await queries.exportedSubAgentOrders(stamp, t)) await creditParent(r.id, r.parentAgentId, r.parentMarginPesewas, t)
    },

    /** A refund or reversal of a sub-agent order whose parent margin was credited takes it back, once. */
    async reverseMargin(orderId: number, why: 'refund' | 'reversal', ctx: Ctx & { transaction: Transaction }) {
      const credited = await queries.creditedMargin(orderId, ctx.transaction)
      if (!credited) return null
      const amount = credited.amountPesewas
      const { entry, balancePesewas } = await deps.earnings.post(
        {
          type: 'SUB_AGENT_MARGIN_REVERSAL',
          agentId: credited.agentId,
          orderId,
          amountPesewas: -amount,
          reason: `Sub-agent margin taken back: order #${orderId} ${why === 'refund' ? 'refunded' : 'reversed'}`
        },
        ctx.transaction
      )
      if (entry) {
        await audit.record(
          {
            action: 'SUB_AGENT_MARGIN_REVERSED',
            resource: 'ORDER',
            resourceId: orderId,
            severity: 'HIGH',
            details: { parentAgentId: credited.agentId, margin: toGhs(amount), why, earnings: toGhs(balancePesewas) }
          },
          ctx
        )
      }
      return entry
    },

    /** The parent's page: its invite link (when its tier allows), its sub-agents, their prices and what it earned from them. */
    async mine(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Sub-agents')
      const st = await queries.standing(agent.id)
      if (!st || st.parentAgentId !== null) throw forbidden('Sub-agents cannot have sub-agents of their own')
      let code = st.inviteCode
      if (st.mayInvite && !code) code = await queries.keepInviteCode(agent.id, newInviteCode())
      const list = await subAgentsOf(agent.id)
      return {
        mayInvite: st.mayInvite,
        parentsApprove: st.parentsApprove,
        invitePath: st.mayInvite && code ? `/agent/register?ref=${code}` : null,
        subAgents: list,
        earned: toGhs(list.reduce((sum, s) => sum + toPesewas(s.earned), 0))!,
        prices: await priceLines(agent.id)
      }
    },

    /** The parent sets what its sub-agents pay per bundle (null: back to the default), each between its own price and the ceiling. */
    async setPrices(body: unknown, ctx: Ctx): Promise<SubAgentPriceLine[]> {
      const agent = requireActiveAgent(ctx, 'Sub-agents')
      const st = await queries.standing(agent.id)
      if (!st || st.parentAgentId !== null) throw forbidden('Sub-agents cannot have sub-agents of their own')
      const s = await settings.getFresh()
      const list = await packages.listActive()
      const own = await pricing.agentPrices(agent.id, list)
      const changes = checkPriceChanges(body, new Map(list.map((p) => [p.id, p])), (pkg) => own.get(pkg.id)!.pricePesewas, s, {
        nameOf: (pkg) => packages.present(pkg).name,
        floorWord: 'your own price'
      })
      await sequelize.transaction(async (t) => {
        await writePriceChanges(sequelize, { table: 'sub_agent_prices', owner: 'parent_agent_id' }, agent.id, changes, t)
        await audit.record(
          {
            action: 'SUB_AGENT_PRICES_UPDATED',
            resource: 'AGENT',
            resourceId: agent.id,
            details: { prices: changes.map((c) => ({ packageId: c.packageId, price: toGhs(c.price) })) }
          },
          { ...ctx, transaction: t }
        )
      })
      return priceLines(agent.id)
    },

    /** The parent suspends (its sub-agent buys nothing, in any channel) or reinstates one of its own sub-agents; audited. */
    async setSuspended(rawId: unknown, suspended: boolean, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Sub-agents')
      await sequelize.transaction(async (t) => {
        const row = await ownSubAgent(agent.id, rawId, t)
        if (!!row.suspendedByParentAt === suspended) throw conflict(suspended ? 'This sub-agent is already suspended' : 'This sub-agent is not suspended')
        await queries.setSuspended(row.id, suspended, t)
        await audit.record(
          {
            action: suspended ? 'SUB_AGENT_SUSPENDED' : 'SUB_AGENT_REINSTATED',
            resource: 'AGENT',
            resourceId: row.id,
            severity: 'MEDIUM',
            details: { parentAgentId: agent.id }
          },
          { ...ctx, transaction: t }
        )
      })
      return subAgentsOf(agent.id)
    },

    /** Where the parent's tier lets parents approve their own sub-agents: approval once the fee is paid, as an admin would. */
    async approve(rawId: unknown, ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Sub-agents')
      const st = await queries.standing(agent.id)
      if (!st?.parentsApprove) throw forbidden('An admin approves your sub-agents')
      await sequelize.transaction(async (t) => {
        const row = await ownSubAgent(agent.id, rawId, t)
        if (row.paymentStatus !== 'SUCCESS') throw conflict('The sub-agent can be approved only after its registration payment is successful.')
        if (row.approved) throw conflict('This sub-agent is already approved')
        await queries.approve(row.id, t)
        await audit.record(
          { action: 'AGENT_APPROVED', resource: 'AGENT', resourceId: row.id, severity: 'MEDIUM', details: { approved: true, byParentAgentId: agent.id } },
          { ...ctx, transaction: t }
        )
      })
      return subAgentsOf(agent.id)
    },

    /** A sub-agent's view: who its parent is and what it pays per bundle now. */
    async myParent(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Sub-agents')
      const parent = await queries.parentOf(agent.id)
      if (!parent) return { parent: null, prices: [] }
      const list = await packages.listActive()
      const quotes = await pricing.quotes(ctx.user, list)
      return {
        parent: { name: parent.name, phone: parent.phone },
        prices: list.map((p) => ({
          packageId: p.id,
          network: p.network,
          name: packages.present(p).name,
          sizeMB: p.sizeMb,
          price: toGhs(quotes.get(p.id)!.pricePesewas)!
        }))
      }
    },

    /** Admin: an agent's place in the tree (its parent, or its sub-agents with their figures). */
    async tree(rawId: unknown) {
      const id = parseId(rawId)
      const row = await queries.withParent(id)
      if (!row) throw notFound('Agent not found')
      const top = row.parentAgentId ?? row.id
      const root = row.parentAgentId ? await queries.agentName(top) : { id: row.id, name: row.name }
      return { agent: { id: row.id, name: row.name }, root, subAgents: await subAgentsOf(top) }
    }
  }
}
