import { UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { formatCedis, toGhs, toPesewas } from '../../lib/money.ts'
import { parseId } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { PackagesService } from '../packages/index.ts'
import { agentPriceOf, type PricingService } from './index.ts'
import { createTierQueries, type Tier } from './queries-tiers.ts'
import { moveTier, type TierMoveInput } from './tier-order.ts'

/** Delivered sales over this many days decide automatic promotion. */
const PROMOTION_WINDOW_DAYS = 30

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

const presentTier = (r: Tier) => ({
  id: r.id,
  name: r.name,
  position: r.position,
  promoteAt: r.promoteAtPesewas === null ? null : toGhs(r.promoteAtPesewas),
  mayInvite: r.mayInvite,
  parentsApprove: r.parentsApprove,
  agents: r.agents
})

export type TiersService = ReturnType<typeof createTiersService>

/** The admin's tiers (ADR 0041): their names and settings, each package's price per tier, an agent's tier, and the daily promotion. */
export function createTiersService(deps: { sequelize: Sequelize; audit: AuditService; packages: PackagesService; pricing: PricingService }) {
  const { sequelize, audit, packages } = deps
  const queries = createTierQueries(sequelize)

  async function list() {
    return (await queries.list()).map(presentTier)
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
    const before = await queries.agentForUpdate(agentId, t)
    if (!before) throw notFound('Agent not found')
    if (before.tierId === tier.id) return false
    await queries.setAgentTier(agentId, before.tierId, tier.id, how, t)
    await audit.record(
      {
        action: how === 'PROMOTION' ? 'AGENT_TIER_PROMOTED' : 'AGENT_TIER_SET',
        resource: 'AGENT',
        resourceId: agentId,
        severity: 'MEDIUM',
        details: { fromTierId: before.tierId, toTierId: tier.id, tier: tier.name, ...details }
      },
      ctx
    )
    await queries.tellUser(
      before.userId,
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
            if ((await queries.update(id, fields, t)) === null) throw notFound('Tier not found')
          } else id = await queries.insert(fields, t)
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
      const own = await queries.allPrices()
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
            const mine = own.find((r) => r.tierId === tier.id && r.packageId === p.id)
            return { tierId: tier.id, price: mine ? toGhs(mine.pricePesewas) : null, effective: toGhs(priceOf(tier.id, p))! }
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
          if (l.price === null) await queries.deletePrice(l.tierId, packageId, t)
          else await queries.upsertPrice(l.tierId, packageId, toPesewas(l.price), t)
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
        const tier = await queries.byId(tierId, t)
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
      const due = await queries.promotionsDue(PROMOTION_WINDOW_DAYS)
      let promoted = 0
      for (const d of due) {
        if (
          await sequelize.transaction((t) =>
            moveAgent(
              d.agentId,
              { id: d.tierId, name: d.tierName },
              'PROMOTION',
              { ...ctx, transaction: t },
              { deliveredSales: toGhs(d.salesPesewas), days: PROMOTION_WINDOW_DAYS }
            )
          )
        )
          promoted++
      }
      return { promoted }
    }
  }
}
