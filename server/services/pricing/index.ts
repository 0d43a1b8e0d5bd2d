import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { forbidden } from '../../lib/errors.ts'
import type { Actor } from '../context.ts'
import type { PackageRow } from '../packages/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import { ceilingOf, sellingPrice } from '../shops/rules.ts'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'

export const SUSPENDED_BY_PARENT = 'Your account has been suspended by the agent who invited you. Please contact them.'

type PricedPackage = Pick<PackageRow, 'id' | 'priceUserPesewas' | 'priceAgentPesewas'>

/** What an order costs its buyer and, for a sub-agent, what its parent earns on it (ADR 0041). */
export interface Quote {
  pricePesewas: number
  /** A sub-agent's parent: what the parent itself pays and the difference it earns when the bundle is delivered. */
  parent: { agentId: number; pricePesewas: number; marginPesewas: number } | null
}

/** The price an actor pays, as the one rule decides it; the actor's standing as the database holds it. */
interface Buyer {
  id: number
  active: boolean
  tierId: number | null
  parentId: number | null
  parentTierId: number | null
  suspended: boolean
}

export interface QuoteOptions {
  transaction?: Transaction
  /** Read the parent's price rows FOR SHARE (placing an order, inside its transaction). */
  lock?: boolean
  /** The agent's cost as a seller (its shop's floor): a suspension stops its buying, not this figure. */
  asSeller?: boolean
}

interface TierStep {
  id: number
  position: number
}

/** The package's own agent price: what the first tier pays when no tier price is set. */
export const agentPriceOf = (pkg: Pick<PackageRow, 'priceUserPesewas' | 'priceAgentPesewas'>): number => pkg.priceAgentPesewas ?? pkg.priceUserPesewas

/**
 * A tier's price for a package: its own when set, else the price of the tier listed before it, and so on
 * up to the package's agent price. `tierId` null (an agent never placed in a tier) is the first tier.
 */
export function tierPriceOf(tierId: number | null, tiers: TierStep[], prices: Map<number, number>, pkg: PricedPackage): number {
  const at =
    tierId === null
      ? 0
      : Math.max(
          0,
          tiers.findIndex((t) => t.id === tierId)
        )
  for (let i = at; i >= 0; i--) {
    const own = tiers[i] && prices.get(tiers[i]!.id)
    if (own) return own
  }
  return agentPriceOf(pkg)
}

/**
 * A sub-agent's price: what its parent set (or, when nothing is set, the first tier's price, what any
 * agent pays), held between the parent's own price and the ceiling of today's markup rule, as shop prices are.
 */
export function subAgentPriceOf(
  saved: number | null,
  base: number,
  parentPrice: number,
  s: Pick<Settings, 'shopMaxMarkupType' | 'shopMaxMarkupValue'>
): number {
  return sellingPrice(saved ?? base, parentPrice, ceilingOf(parentPrice, s))
}

export type PricingService = ReturnType<typeof createPricingService>

/**
 * THE price rule (ADR 0041): every channel (web, wallet, USSD, reseller API, agent shops, bulk orders)
 * asks `priceFor(actor, package)` and nothing else reads agent prices. A visitor or an agent that may
 * not buy as one pays the public price; an approved, paid agent its tier's price; a sub-agent the
 * price its parent set, the parent earning the difference on delivery.
 */
export function createPricingService(deps: { sequelize: Sequelize; settings: SettingsService }) {
  const { sequelize, settings } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  async function buyerOf(actor: Actor | null | undefined, t?: Transaction): Promise<Buyer | null> {
    if (actor?.role !== 'AGENT' || !actor.agent) return null
    const [row] = await q<{
      id: number
      active: boolean
      tier_id: number | null
      parent_agent_id: number | null
      parent_tier_id: number | null
      suspended: boolean
    }>(
      `SELECT a.id, ${ACTIVE_AGENT_SQL} AS active, a.tier_id, a.parent_agent_id, p.tier_id AS parent_tier_id,
              (a.suspended_by_parent_at IS NOT NULL) AS suspended
         FROM agents a LEFT JOIN agents p ON p.id = a.parent_agent_id WHERE a.id = :id`,
      { id: actor.agent.id },
      t
    )
    if (!row) return null
    return { id: row.id, active: row.active, tierId: row.tier_id, parentId: row.parent_agent_id, parentTierId: row.parent_tier_id, suspended: row.suspended }
  }

  /** The tiers in their order and each tier's own price per package asked for. */
  async function tierPrices(packageIds: number[], t?: Transaction) {
    const tiers = await q<TierStep>('SELECT id, position FROM tiers ORDER BY position', {}, t)
    const rows = packageIds.length
      ? await q<{ tier_id: number; package_id: number; price_pesewas: number }>(
          'SELECT tier_id, package_id, price_pesewas FROM tier_prices WHERE package_id IN (:ids)',
          { ids: packageIds },
          t
        )
      : []
    const byPackage = new Map<number, Map<number, number>>()
    for (const r of rows) {
      if (!byPackage.has(r.package_id)) byPackage.set(r.package_id, new Map())
      byPackage.get(r.package_id)!.set(r.tier_id, Number(r.price_pesewas))
    }
    return (tierId: number | null, pkg: PricedPackage) => tierPriceOf(tierId, tiers, byPackage.get(pkg.id) ?? new Map(), pkg)
  }

  /**
   * Quotes for many packages for one actor. `lock`: the parent's price rows are read FOR SHARE, so a
   * parent's price change waits for the order being placed at the price it read (inside its transaction).
   */
  async function quotes(actor: Actor | null | undefined, pkgs: PricedPackage[], opts: QuoteOptions = {}): Promise<Map<number, Quote>> {
    const t = opts.transaction
    const out = new Map<number, Quote>()
    const buyer = await buyerOf(actor, t)
    if (!buyer?.active) {
      for (const p of pkgs) out.set(p.id, { pricePesewas: p.priceUserPesewas, parent: null })
      return out
    }
    if (buyer.suspended && !opts.asSeller) throw forbidden(SUSPENDED_BY_PARENT)
    const priceOf = await tierPrices(
      pkgs.map((p) => p.id),
      t
    )
    if (buyer.parentId === null) {
      for (const p of pkgs) out.set(p.id, { pricePesewas: priceOf(buyer.tierId, p), parent: null })
      return out
    }
    const ids = pkgs.map((p) => p.id)
    const saved = new Map<number, number>()
    if (ids.length) {
      const rows = await q<{ package_id: number; price_pesewas: number }>(
        `SELECT package_id, price_pesewas FROM sub_agent_prices WHERE parent_agent_id = :parent AND package_id IN (:ids)${opts.lock ? ' FOR SHARE' : ''}`,
        { parent: buyer.parentId, ids },
        t
      )
      for (const r of rows) saved.set(r.package_id, Number(r.price_pesewas))
    }
    const s = await settings.get(t ? { transaction: t } : {})
    for (const p of pkgs) {
      const parentPrice = priceOf(buyer.parentTierId, p)
      const price = subAgentPriceOf(saved.get(p.id) ?? null, priceOf(null, p), parentPrice, s)
      out.set(p.id, { pricePesewas: price, parent: { agentId: buyer.parentId, pricePesewas: parentPrice, marginPesewas: price - parentPrice } })
    }
    return out
  }

  return {
    quotes,
    /** The one price rule for one package (see the service's comment). */
    async priceFor(actor: Actor | null | undefined, pkg: PricedPackage, opts: QuoteOptions = {}): Promise<Quote> {
      return (await quotes(actor, [pkg], opts)).get(pkg.id)!
    },
    /** An agent's own price per package by its agent id (a shop's floor, a parent's own cost); no actor needed. */
    async agentPrices(agentId: number, pkgs: PricedPackage[], t?: Transaction): Promise<Map<number, Quote>> {
      const actor: Actor = {
        id: 0,
        email: '',
        role: 'AGENT',
        name: null,
        phone: null,
        agent: { id: agentId, name: '', phone: '', approved: true, paymentStatus: 'SUCCESS' }
      }
      return quotes(actor, pkgs, { transaction: t, asSeller: true })
    },
    tierPrices
  }
}
