import { type Sequelize, UniqueConstraintError } from 'sequelize'
import { badRequest, conflict } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { PackagesService } from '../packages/index.ts'
import type { PricingService } from '../pricing/index.ts'
import { checkPriceChanges, writePriceChanges } from '../pricing/price-rows.ts'
import type { SettingsService } from '../settings/index.ts'
import type { ShopPrices } from './prices.ts'
import type { Shop, ShopQueries, ShopWrite } from './queries.ts'
import { ACCENT_PALETTE } from './rules.ts'
import { presentFigures, presentShop, type PriceLine, type ShopView } from './view.ts'

/** The agent's shop form, checked at its edge (slug and accent by rules.ts); the fields left out are empty, the accent the palette's first. */
export type ShopInput = Pick<ShopWrite, 'slug' | 'name'> & Partial<ShopWrite>

const TAKEN = 'This shop link is already taken. Please choose another'

/** The signed-in agent's own shop: its form, prices, WhatsApp switch and figures. */
export function createShopOwner(deps: {
  sequelize: Sequelize
  queries: ShopQueries
  audit: AuditService
  settings: SettingsService
  packages: PackagesService
  pricing: PricingService
  prices: ShopPrices
  changed: (shopId: number) => void
}) {
  const { sequelize, queries, audit, settings, packages, prices, changed } = deps

  return {
    /** The signed-in agent's shop (null before it is created), its price lines, figures and the limits. */
    async mine(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Shops')
      const [row, s] = await Promise.all([queries.byAgent(agent.id), settings.getFresh()])
      const lines = await prices.priceLines(row?.id ?? null, agent.id, s)
      const fig = row ? (await queries.figures([row.id])).get(row.id) : undefined
      return {
        shop: row ? presentShop(row) : null,
        prices: lines,
        figures: presentFigures(fig),
        limits: { maxMarkupType: s.shopMaxMarkupType, maxMarkupValue: s.shopMaxMarkupValue },
        palette: ACCENT_PALETTE
      }
    },

    /** Creates or edits the agent's shop. A new slug keeps the old one as a redirect. */
    async saveMine(input: ShopInput, ctx: Ctx): Promise<ShopView> {
      const agent = requireActiveAgent(ctx, 'Shops')
      const w: ShopWrite = { description: '', whatsapp: '', accent: ACCENT_PALETTE[0], ...input }
      try {
        const saved = await sequelize.transaction(async (t) => {
          const before = await queries.byAgent(agent.id, t)
          // An old link of another shop stays that shop's redirect: never handed to someone else.
          const holder = await queries.oldSlugHolder(w.slug, t)
          if (holder !== null && holder !== before?.id) throw conflict(TAKEN)
          let row: Shop
          if (!before) row = await queries.insert(agent.id, w, t)
          else {
            if (before.slug !== w.slug) await queries.keepOldSlug(before.id, before.slug, w.slug, t)
            row = await queries.update(before.id, w, t)
          }
          await audit.record(
            {
              action: before ? 'SHOP_UPDATED' : 'SHOP_CREATED',
              resource: 'SHOP',
              resourceId: row.id,
              details: { slug: w.slug, ...(before && before.slug !== w.slug ? { previousSlug: before.slug } : {}), name: row.name, accent: w.accent }
            },
            { ...ctx, transaction: t }
          )
          return presentShop({ ...row, agentActive: true })
        })
        // The trigger's NOTIFY reaches this instance too, but a moment after the answer: the agent reloading its page must see the change.
        changed(saved.id)
        return saved
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw conflict(TAKEN)
        throw err
      }
    },

    /** Sets (or with price null, stops) the agent's price per bundle; each between its agent price and today's ceiling. */
    async setPrices(body: unknown, ctx: Ctx): Promise<PriceLine[]> {
      const agent = requireActiveAgent(ctx, 'Shops')
      const shop = await queries.byAgent(agent.id)
      if (!shop) throw badRequest('Create your shop first')
      const s = await settings.getFresh()
      const list = await packages.listActive()
      const floors = await deps.pricing.agentPrices(agent.id, list)
      // The body's check is pricing's, shared with sub-agents' prices; it runs once the shop is known.
      const changes = checkPriceChanges(body, new Map(list.map((p) => [p.id, p])), (pkg) => floors.get(pkg.id)!.pricePesewas, s, {
        nameOf: (pkg) => packages.present(pkg).name,
        floorWord: 'your agent price'
      })
      await sequelize.transaction(async (t) => {
        await writePriceChanges(sequelize, { table: 'shop_prices', owner: 'shop_id' }, shop.id, changes, t)
        await audit.record(
          {
            action: 'SHOP_PRICES_UPDATED',
            resource: 'SHOP',
            resourceId: shop.id,
            details: { prices: changes.map((c) => ({ packageId: c.packageId, price: toGhs(c.price) })) }
          },
          { ...ctx, transaction: t }
        )
      })
      changed(shop.id)
      return prices.priceLines(shop.id, agent.id, s)
    },

    /** Turns ordering in the WhatsApp chat on or off; only an open shop of an active agent may turn it on. Audited. */
    async setWhatsappOrders(on: boolean, ctx: Ctx): Promise<ShopView> {
      const agent = requireActiveAgent(ctx, 'Shops')
      const shop = await queries.byAgent(agent.id)
      if (!shop) throw badRequest('Create your shop first')
      if (on && !presentShop(shop).open) throw conflict('Your shop is closed: it cannot take WhatsApp orders until it is reopened')
      const view = await sequelize.transaction(async (t) => {
        const row = await queries.setWhatsappOrders(shop.id, on, t)
        await audit.record({ action: 'SHOP_UPDATED', resource: 'SHOP', resourceId: shop.id, details: { whatsappOrders: on } }, { ...ctx, transaction: t })
        return presentShop({ ...row, agentActive: true })
      })
      changed(shop.id)
      return view
    },

    /** Sales and margins per day over the last `days` days (the agent's chart and its table). */
    async series(ctx: Ctx, days = 30) {
      const agent = requireActiveAgent(ctx, 'Shops')
      const n = Math.min(Math.max(1, Math.trunc(days) || 30), 365)
      const rows = await queries.daily(agent.id, n)
      return rows.map((r) => ({ day: r.day, sales: r.sales, amount: toGhs(r.amountPesewas)!, margin: toGhs(r.marginPesewas)! }))
    }
  }
}
