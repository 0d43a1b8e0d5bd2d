import { QueryTypes, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { formatCedis, toGhs, toPesewas } from '../../lib/money.ts'
import { parseId } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { PackagesService } from '../packages/index.ts'
import { agentPriceOf, type PricingService } from './index.ts'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'
import { moveTier, type TierMoveInput } from './tier-order.ts'

/** Delivered sales over this many days decide automatic promotion. */
const PROMOTION_WINDOW_DAYS = 30

interface TierRow {
  id: number
  name: string
  position: number
  promote_at_pesewas: string | null
  may_invite: boolean
  parents_approve: boolean
  agents: string
}

/** A tier to create (no id) or edit, checked at the edge (routes/tiers/schema.ts); promoteAt in GHS. */
export interface TierInput {
  id?: number
  name: string
  /** GHS of delivered sales over 30 days that promote an agent to this tier; null: only an admin moves agents here. */
  promoteAt: number | null
  mayInvite: boolean
  parentsApprove: boolean
}

/** One package's price per tier, checked at the edge; a null price: the tier pays what the tier before it pays. */
export interface TierPricesInput {
  prices: { tierId: number; price: number | null }[]
}

const presentTier = (r: TierRow) => ({
  id: r.id,
  name: r.name,
  position: r.position,
  promoteAt: r.promote_at_pesewas === null ? null : toGhs(Number(r.promote_at_pesewas)),
  mayInvite: r.may_invite,
  parentsApprove: r.parents_approve,
  agents: Number(r.agents ?? 0)
})

export type TiersService = ReturnType<typeof createTiersService>

/** The admin's tiers (ADR 0041): their names and settings, each package's price per tier, an agent's tier, and the daily promotion. */
export function createTiersService(deps: { sequelize: Sequelize; audit: AuditService; packages: PackagesService; pricing: PricingService }) {
  const { sequelize, audit, packages } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  async function list() {
    const rows = await q<TierRow>(
      `SELECT t.*, (SELECT count(*) FROM agents a WHERE COALESCE(a.tier_id, (SELECT id FROM tiers ORDER BY position LIMIT 1)) = t.id) AS agents
         FROM tiers t ORDER BY t.position`
    )
    return rows.map(presentTier)
  }

  /** Moves an agent to a tier, with its record, audit entry and a message in the agent's inbox, in the caller's transaction. */
  async function moveAgent(
    agentId: number,
    tier: { id: number; name: string },
    how: 'ADMIN' | 'PROMOTION',
    ctx: Ctx & { transaction: Transaction },
    details: Record<string, unknown> = {}
  ) {
    const t = ctx.transaction
    const [before] = await q<{ tier_id: number | null; user_id: number }>('SELECT tier_id, user_id FROM agents WHERE id = :agentId FOR UPDATE', { agentId }, t)
    if (!before) throw notFound('Agent not found')
    if (before.tier_id === tier.id) return false
    await q('UPDATE agents SET tier_id = :tierId, updated_at = now() WHERE id = :agentId RETURNING id', { agentId, tierId: tier.id }, t)
    await q(
      'INSERT INTO tier_changes (agent_id, from_tier_id, to_tier_id, how) VALUES (:agentId, :from, :to, :how) RETURNING id',
      { agentId, from: before.tier_id, to: tier.id, how },
      t
    )
    await audit.record(
      {
        action: how === 'PROMOTION' ? 'AGENT_TIER_PROMOTED' : 'AGENT_TIER_SET',
        resource: 'AGENT',
        resourceId: agentId,
        severity: 'MEDIUM',
        details: { fromTierId: before.tier_id, toTierId: tier.id, tier: tier.name, ...details }
      },
      ctx
    )
    const [msg] = await q<{ id: number }>(
      `INSERT INTO admin_messages (title, message, priority, sender_id) VALUES (:title, :message, 'NORMAL', :sender) RETURNING id`,
      {
        title: `You are now in the ${tier.name} tier`,
        message:
          how === 'PROMOTION'
            ? `Your delivered sales over the last ${PROMOTION_WINDOW_DAYS} days moved you up to ${tier.name}. Your new prices apply to your orders from now on.`
            : `Your account was moved to the ${tier.name} tier. Your prices for this tier apply to your orders from now on.`,
        sender: how === 'ADMIN' ? (ctx.user?.id ?? null) : null
      },
      t
    )
    await q('INSERT INTO admin_message_recipients (message_id, user_id) VALUES (:m, :u) RETURNING id', { m: msg!.id, u: before.user_id }, t)
    return true
  }

  return {
    list,

    /** Creates (no id: placed last) or edits a tier; audited. */
    async save(value: TierInput, ctx: Ctx) {
      const fields = {
        name: value.name,
        promoteAt: value.promoteAt === null ? null : toPesewas(value.promoteAt),
        mayInvite: value.mayInvite,
        parentsApprove: value.parentsApprove
      }
      try {
        await sequelize.transaction(async (t) => {
          let id = value.id as number | undefined
          if (id) {
            const [row] = await q<{ id: number }>(
              `UPDATE tiers SET name = :name, promote_at_pesewas = :promoteAt, may_invite = :mayInvite, parents_approve = :parentsApprove, updated_at = now() WHERE id = :id RETURNING id`,
              { id, ...fields },
              t
            )
            if (!row) throw notFound('Tier not found')
          } else {
            const [row] = await q<{ id: number }>(
              `INSERT INTO tiers (name, position, promote_at_pesewas, may_invite, parents_approve)
               VALUES (:name, (SELECT COALESCE(max(position) + 1, 0) FROM tiers), :promoteAt, :mayInvite, :parentsApprove) RETURNING id`,
              fields,
              t
            )
            id = row!.id
          }
          await audit.record(
            { action: value.id ? 'TIER_UPDATED' : 'TIER_CREATED', resource: 'SYSTEM', resourceId: `tier:${id}`, severity: 'MEDIUM', details: { ...value, id } },
            { ...ctx, transaction: t }
          )
        })
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw conflict('A tier with this name already exists')
        throw err
      }
      return list()
    },

    /** Moves a tier one place up or down; positions stay 0..n-1 (see tier-order.ts). Audited. */
    async move(rawId: unknown, body: TierMoveInput, ctx: Ctx) {
      await moveTier(deps, rawId, body, ctx)
      return list()
    },

    /** Every package with each tier's own price (null: the tier above's) and the price it comes to (GHS). */
    async grid() {
      const [tiers, all] = await Promise.all([list(), packages.listAll()])
      const own = await q<{ tier_id: number; package_id: number; price_pesewas: number }>('SELECT tier_id, package_id, price_pesewas FROM tier_prices')
      const priceOf = await deps.pricing.tierPrices(all.map((p) => p.id))
      return {
        tiers,
        packages: all.map((p) => ({
          id: p.id,
          network: p.network,
          name: packages.present(p).name,
          sizeMB: p.sizeMb,
          active: p.active,
          priceUser: toGhs(p.priceUserPesewas)!,
          agentPrice: toGhs(agentPriceOf(p))!,
          prices: tiers.map((tier) => {
            const mine = own.find((r) => r.tier_id === tier.id && r.package_id === p.id)
            return { tierId: tier.id, price: mine ? toGhs(Number(mine.price_pesewas)) : null, effective: toGhs(priceOf(tier.id, p))! }
          })
        }))
      }
    },

    /** Sets one package's price per tier (null clears it); never above the public price. Audited. */
    async setPackagePrices(rawId: unknown, value: TierPricesInput, ctx: Ctx) {
      const packageId = parseId(rawId, 'package')
      const pkg = (await packages.listAll()).find((p) => p.id === packageId)
      if (!pkg) throw notFound('Package not found')
      const tierIds = new Set((await list()).map((t) => t.id))
      const lines = value.prices
      for (const l of lines) {
        if (!tierIds.has(l.tierId)) throw badRequest('A tier in the list does not exist any more. Please reload the page')
        if (l.price !== null && toPesewas(l.price) > pkg.priceUserPesewas)
          throw badRequest(`A tier price cannot be above the public price of ${formatCedis(toGhs(pkg.priceUserPesewas))}`)
      }
      await sequelize.transaction(async (t) => {
        for (const l of lines) {
          if (l.price === null)
            await q('DELETE FROM tier_prices WHERE tier_id = :tierId AND package_id = :packageId RETURNING tier_id', { tierId: l.tierId, packageId }, t)
          else {
            await q(
              `INSERT INTO tier_prices (tier_id, package_id, price_pesewas) VALUES (:tierId, :packageId, :price)
               ON CONFLICT (tier_id, package_id) DO UPDATE SET price_pesewas = EXCLUDED.price_pesewas, updated_at = now() RETURNING tier_id`,
              { tierId: l.tierId, packageId, price: toPesewas(l.price) },
              t
            )
          }
        }
        await audit.record(
          { action: 'TIER_PRICES_UPDATED', resource: 'SYSTEM', resourceId: `package:${packageId}`, severity: 'MEDIUM', details: { packageId, prices: lines } },
          { ...ctx, transaction: t }
        )
      })
    },

    /** The admin puts an agent in a tier (up or down); audited and told to the agent. */
    async setAgentTier(rawAgentId: unknown, body: unknown, ctx: Ctx) {
      const agentId = parseId(rawAgentId)
      const tierId = parseId((body as Record<string, unknown> | null)?.tierId, 'tier')
      await sequelize.transaction(async (t) => {
        const [tier] = await q<{ id: number; name: string }>('SELECT id, name FROM tiers WHERE id = :tierId', { tierId }, t)
        if (!tier) throw badRequest('Choose one of the tiers')
        await moveAgent(agentId, tier, 'ADMIN', { ...ctx, transaction: t })
      })
      return { agentId, tierId }
    },

    /**
     * The daily run: every active agent whose delivered sales over the last 30 days reach a higher tier's
     * threshold moves up to the highest such tier (never down), each in its own transaction, audited
     * and told. Running it twice the same day changes nothing the second time.
     */
    async promoteDue(ctx: Ctx = {}) {
      const due = await q<{ agent_id: number; tier_id: number; tier_name: string; sales: string }>(
        `WITH sales AS (
           SELECT a.id AS agent_id, COALESCE(a.tier_id, (SELECT id FROM tiers ORDER BY position LIMIT 1)) AS tier_id,
                  (SELECT COALESCE(sum(o.amount_pesewas), 0) FROM orders_view o
                    WHERE o.agent_id = a.id AND o.payment_status = 'SUCCESS' AND o.delivered
                      AND o.delivered_at >= now() - make_interval(days => :days)) AS sales
             FROM agents a WHERE ${ACTIVE_AGENT_SQL})
         SELECT DISTINCT ON (s.agent_id) s.agent_id, t.id AS tier_id, t.name AS tier_name, s.sales
           FROM sales s JOIN tiers cur ON cur.id = s.tier_id
           JOIN tiers t ON t.position > cur.position AND t.promote_at_pesewas IS NOT NULL AND t.promote_at_pesewas <= s.sales
          ORDER BY s.agent_id, t.position DESC`,
        { days: PROMOTION_WINDOW_DAYS }
      )
      let promoted = 0
      for (const d of due) {
        if (
          await sequelize.transaction((t) =>
            moveAgent(
              d.agent_id,
              { id: d.tier_id, name: d.tier_name },
              'PROMOTION',
              { ...ctx, transaction: t },
              { deliveredSales: toGhs(Number(d.sales)), days: PROMOTION_WINDOW_DAYS }
            )
          )
        )
          promoted++
      }
      return { promoted }
    }
  }
}
