import type { Sequelize, Transaction } from 'sequelize'
import { forbidden } from '../../lib/errors.ts'
import type { Actor } from '../context.ts'
import type { PackageRow } from '../packages/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import { ceilingOf, sellingPrice } from '../shops/rules.ts'
import { createPricingQueries, type Standing, type TierPrice, type TierStep } from './queries.ts'

export type { Standing } from './queries.ts'

export const SUSPENDED_BY_PARENT = 'Your account has been suspended by the agent who invited you. Please contact them.'

type PricedPackage = Pick<PackageRow, 'id' | 'priceUserPesewas' | 'priceAgentPesewas'>

/** What an order costs its buyer and, for a sub-agent, what its parent earns on it (ADR 0041). */
export interface Quote {
  pricePesewas: number
  /** A sub-agent's parent: what the parent itself pays and the difference it earns when the bundle is delivered. */
  parent: { agentId: number; pricePesewas: number; marginPesewas: number } | null
}

export interface QuoteOptions {
  transaction?: Transaction
  /** Read the parent's price rows FOR SHARE (placing an order, inside its transaction). */
  lock?: boolean
  /** The agent's cost as a seller (its shop's floor): a suspension stops its buying, not this figure. */
  asSeller?: boolean
  /**
   * The price rule's read as a statement of this request already made it (`standingJson`), for the agent and the
   * packages it names; used only when they are the actor's agent and the packages asked for, else read here.
   */
  read?: StandingRead
}

/** The price rule's read made by another statement of the same request: for which agent and packages, and what it found. */
export interface StandingRead {
  agentId: number
  packageIds: number[]
  standing: Standing | null
}

const sameIds = (a: number[], b: number[]) => a.length === b.length && a.every((id, i) => id === b[i])

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
  const queries = createPricingQueries(sequelize)

  /** The tiers in their order and each tier's own price per package asked for. */
  async function tierPrices(packageIds: number[], t?: Transaction) {
    return priceRule(await queries.tierSteps(t), packageIds.length ? await queries.tierPricesOf(packageIds, t) : [])
  }

  /** A tier's price of a package, from the tiers in their order and the tiers' own prices. */
  function priceRule(tiers: TierStep[], rows: TierPrice[]) {
    const byPackage = new Map<number, Map<number, number>>()
    for (const r of rows) {
      if (!byPackage.has(r.packageId)) byPackage.set(r.packageId, new Map())
      byPackage.get(r.packageId)!.set(r.tierId, r.pricePesewas)
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
    const agentId = actor?.role === 'AGENT' && actor.agent ? actor.agent.id : null
    const ids = pkgs.map((p) => p.id)
    const read = opts.read
    const standing =
      agentId === null ? null : read && read.agentId === agentId && sameIds(read.packageIds, ids) ? read.standing : await queries.buyerAndTiers(agentId, ids, t)
    const buyer = standing?.buyer
    if (!standing || !buyer?.active) {
      for (const p of pkgs) out.set(p.id, { pricePesewas: p.priceUserPesewas, parent: null })
      return out
    }
    if (buyer.suspended && !opts.asSeller) throw forbidden(SUSPENDED_BY_PARENT)
    const priceOf = priceRule(standing.tiers, standing.prices)
    if (buyer.parentId === null) {
      for (const p of pkgs) out.set(p.id, { pricePesewas: priceOf(buyer.tierId, p), parent: null })
      return out
    }
    const saved = ids.length ? await queries.subAgentPrices(buyer.parentId, ids, opts.lock, t) : new Map<number, number>()
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
