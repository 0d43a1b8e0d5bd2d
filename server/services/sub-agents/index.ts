import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
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
import { MAY_INVITE, newInviteCode, TIER_OF_AGENT } from './invites.ts'

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

interface SubAgentRow {
  id: number
  name: string
  phone: string
  approved: boolean
  payment_status: string | null
  suspended_by_parent_at: Date | null
  created_at: Date
  sales: string
  amount: string | null
  last_order_at: Date | null
  earned: string | null
}

const statusOf = (r: Pick<SubAgentRow, 'approved' | 'payment_status' | 'suspended_by_parent_at'>) =>
  r.suspended_by_parent_at ? 'SUSPENDED' : r.payment_status !== 'SUCCESS' ? 'FEE_UNPAID' : r.approved ? 'ACTIVE' : 'AWAITING_APPROVAL'

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
  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  /** The parent's standing: may it invite, do its sub-agents wait for its approval rather than an admin's. */
  async function standing(agentId: number) {
    const [row] = await q<{ may_invite: boolean; parents_approve: boolean; invite_code: string | null; parent_agent_id: number | null }>(
      `SELECT (${MAY_INVITE}) AS may_invite, COALESCE(t.parents_approve, false) AS parents_approve, a.invite_code, a.parent_agent_id
         FROM agents a LEFT JOIN tiers t ON t.id = ${TIER_OF_AGENT} WHERE a.id = :agentId`,
      { agentId }
    )
    return row ?? null
  }

  async function priceLines(parentId: number): Promise<SubAgentPriceLine[]> {
    const list = await packages.listActive()
    const [own, base, s, savedRows] = await Promise.all([
      pricing.agentPrices(parentId, list),
      pricing.tierPrices(list.map((p) => p.id)),
      settings.getFresh(),
      q<{ package_id: number; price_pesewas: number }>('SELECT package_id, price_pesewas FROM sub_agent_prices WHERE parent_agent_id = :parentId', { parentId })
    ])
    const saved = new Map(savedRows.map((r) => [r.package_id, Number(r.price_pesewas)]))
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
    const rows = await q<SubAgentRow>(
      `SELECT a.id, a.name, a.phone, a.approved, a.payment_status, a.suspended_by_parent_at, a.created_at,
              (SELECT count(*) FROM orders o WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS') AS sales,
              (SELECT sum(o.amount_pesewas) FROM orders o WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS') AS amount,
              (SELECT max(o.created_at) FROM orders o WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS') AS last_order_at,
              (SELECT sum(e.amount_pesewas) FROM earnings_entries e JOIN orders o ON o.id = e.order_id
                WHERE e.agent_id = :parentId AND o.agent_id = a.id AND e.type IN ('SUB_AGENT_MARGIN','SUB_AGENT_MARGIN_REVERSAL')) AS earned
         FROM agents a WHERE a.parent_agent_id = :parentId ORDER BY a.created_at DESC, a.id DESC`,
      { parentId }
    )
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      phone: r.phone,
      status: statusOf(r),
      joinedAt: new Date(r.created_at).toISOString(),
      sales: Number(r.sales),
      salesAmount: toGhs(Number(r.amount ?? 0))!,
      lastOrderAt: r.last_order_at ? new Date(r.last_order_at).toISOString() : null,
      earned: toGhs(Number(r.earned ?? 0))!
    }))
  }

  /** The parent's own sub-agent, locked for the change; 404 for anyone else's. */
  async function ownSubAgent(parentId: number, rawId: unknown, t: Transaction) {
    const id = parseId(rawId, 'sub-agent')
    const [row] = await q<{ id: number; approved: boolean; payment_status: string | null; suspended_by_parent_at: Date | null }>(
      'SELECT id, approved, payment_status, suspended_by_parent_at FROM agents WHERE id = :id AND parent_agent_id = :parentId FOR UPDATE',
      { id, parentId },
      t
    )
    if (!row) throw notFound(NOT_YOUR_SUB_AGENT)
    return row
  }

  /** Delivery reached DELIVERED or MANUAL: the parent's margin on a sub-agent's order, once, in that change's transaction. */
  async function creditMargin(order: { id: number; parent_agent_id?: number | null; parent_margin_pesewas?: number | string | null }, t: Transaction) {
    const margin = Number(order.parent_margin_pesewas ?? 0)
    if (!order.parent_agent_id || !(margin > 0)) return null
    const { entry, balancePesewas } = await deps.earnings.post(
      { type: 'SUB_AGENT_MARGIN', agentId: order.parent_agent_id, orderId: order.id, amountPesewas: margin, reason: `Sub-agent margin on order #${order.id}` },
      t
    )
    if (entry) {
      await audit.record(
        {
          action: 'SUB_AGENT_MARGIN_CREDITED',
          resource: 'ORDER',
          resourceId: order.id,
          details: { parentAgentId: order.parent_agent_id, margin: toGhs(margin), earnings: toGhs(balancePesewas) }
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
      const rows = await q<{ id: number; parent_agent_id: number; parent_margin_pesewas: number }>(
        `SELECT o.id, o.parent_agent_id, o.parent_margin_pesewas FROM order_exports e JOIN orders o ON o.id = e.order_id
          WHERE e.exported_at = :stamp::timestamptz AND o.parent_agent_id IS NOT NULL ORDER BY o.parent_agent_id, o.id`,
        { stamp },
        t
      )
      for (const r of rows) await creditMargin(r, t)
    },

    /** A refund or reversal of a sub-agent order whose parent margin was credited takes it back, once. */
    async reverseMargin(orderId: number, why: 'refund' | 'reversal', ctx: Ctx & { transaction: Transaction }) {
      const [credited] = await q<{ agent_id: number; amount_pesewas: string }>(
        `SELECT agent_id, amount_pesewas FROM earnings_entries WHERE order_id = :orderId AND type = 'SUB_AGENT_MARGIN'`,
        { orderId },
        ctx.transaction
      )
      if (!credited) return null
      const amount = Number(credited.amount_pesewas)
      const { entry, balancePesewas } = await deps.earnings.post(
        {
          type: 'SUB_AGENT_MARGIN_REVERSAL',
          agentId: credited.agent_id,
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
            details: { parentAgentId: credited.agent_id, margin: toGhs(amount), why, earnings: toGhs(balancePesewas) }
          },
          ctx
        )
      }
      return entry
    },

    /** The parent's page: its invite link (when its tier allows), its sub-agents, their prices and what it earned from them. */
    async mine(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Sub-agents')
      const st = await standing(agent.id)
      if (!st || st.parent_agent_id !== null) throw forbidden('Sub-agents cannot have sub-agents of their own')
      let code = st.invite_code
      if (st.may_invite && !code) {
        const [row] = await q<{ invite_code: string }>('UPDATE agents SET invite_code = COALESCE(invite_code, :code) WHERE id = :id RETURNING invite_code', {
          id: agent.id,
          code: newInviteCode()
        })
        code = row!.invite_code
      }
      const list = await subAgentsOf(agent.id)
      return {
        mayInvite: st.may_invite,
        parentsApprove: st.parents_approve,
        invitePath: st.may_invite && code ? `/agent/register?ref=${code}` : null,
        subAgents: list,
        earned: toGhs(list.reduce((sum, s) => sum + toPesewas(s.earned), 0))!,
        prices: await priceLines(agent.id)
      }
    },

    /** The parent sets what its sub-agents pay per bundle (null: back to the default), each between its own price and the ceiling. */
    async setPrices(body: unknown, ctx: Ctx): Promise<SubAgentPriceLine[]> {
      const agent = requireActiveAgent(ctx, 'Sub-agents')
      const st = await standing(agent.id)
      if (!st || st.parent_agent_id !== null) throw forbidden('Sub-agents cannot have sub-agents of their own')
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
        if (!!row.suspended_by_parent_at === suspended) throw conflict(suspended ? 'This sub-agent is already suspended' : 'This sub-agent is not suspended')
        await q(`UPDATE agents SET suspended_by_parent_at = ${suspended ? 'now()' : 'NULL'}, updated_at = now() WHERE id = :id RETURNING id`, { id: row.id }, t)
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
      const st = await standing(agent.id)
      if (!st?.parents_approve) throw forbidden('An admin approves your sub-agents')
      await sequelize.transaction(async (t) => {
        const row = await ownSubAgent(agent.id, rawId, t)
        if (row.payment_status !== 'SUCCESS') throw conflict('The sub-agent can be approved only after its registration payment is successful.')
        if (row.approved) throw conflict('This sub-agent is already approved')
        await q('UPDATE agents SET approved = true, approved_at = now(), updated_at = now() WHERE id = :id RETURNING id', { id: row.id }, t)
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
      const [parent] = await q<{ id: number; name: string; phone: string }>(
        'SELECT p.id, p.name, p.phone FROM agents a JOIN agents p ON p.id = a.parent_agent_id WHERE a.id = :id',
        { id: agent.id }
      )
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
      const [row] = await q<{ id: number; name: string; parent_agent_id: number | null; parent_name: string | null }>(
        'SELECT a.id, a.name, a.parent_agent_id, p.name AS parent_name FROM agents a LEFT JOIN agents p ON p.id = a.parent_agent_id WHERE a.id = :id',
        { id }
      )
      if (!row) throw notFound('Agent not found')
      const top = row.parent_agent_id ?? row.id
      const [root] = row.parent_agent_id
        ? await q<{ id: number; name: string }>('SELECT id, name FROM agents WHERE id = :top', { top })
        : [{ id: row.id, name: row.name }]
      return { agent: { id: row.id, name: row.name }, root: root ?? null, subAgents: await subAgentsOf(top) }
    }
  }
}
