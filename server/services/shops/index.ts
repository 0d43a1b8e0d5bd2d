import { QueryTypes, UniqueConstraintError, type Sequelize, type Transaction } from 'sequelize'
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts'
import { formatCedis, toGhs, toPesewas } from '../../lib/money.ts'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { EarningsService } from '../earnings/index.ts'
import { PRICE_CHANGED, type OrdersService, type PlaceOptions, type PlaceOrderInput, type ShopQuote } from '../orders/index.ts'
import type { PricingService, Quote } from '../pricing/index.ts'
import type { PackageRow, PackagesService } from '../packages/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import { shopCardPng } from './og-card.ts'
import { qrSvg } from './qr.ts'
import { ACCENT_PALETTE, ceilingOf, checkAccent, checkSlug, orderBodySchema, priceFields, sellingPrice, shopSchema, type ShopPriceFields } from './rules.ts'
import { checkPriceChanges, writePriceChanges } from '../pricing/price-rows.ts'

export { PRICE_CHANGED }
export const SHOP_CLOSED = 'This shop is closed at the moment.'

interface ShopFields {
  id: number
  slug: string
  name: string
  description: string
  whatsapp: string
  accent: string
  status: 'ACTIVE' | 'SUSPENDED'
}

interface ShopRow extends ShopFields {
  agent_id: number
  whatsapp_orders: boolean
  suspended_reason: string | null
  created_at: Date
  updated_at: Date
}

export interface ShopView extends ShopFields {
  /** Open to buyers: ACTIVE, and its agent is still approved and paid. */
  open: boolean
  /** Its customers may order in the WhatsApp chat (docs/whatsapp.md). */
  whatsappOrders: boolean
}

export interface ShopPackage {
  id: number
  network: string
  name: string
  sizeMB: number
  /** The shop's price now (GHS). */
  price: number
}

export interface PriceLine extends ShopPriceFields {
  packageId: number
  network: string
  name: string
  sizeMB: number
}

export type ShopsService = ReturnType<typeof createShopsService>

/** Agents' shops (ADR 0020 '## Shops'): the shop, its prices, its sales at the confirmed price, its margins. */
export function createShopsService(deps: {
  sequelize: Sequelize
  audit: AuditService
  settings: SettingsService
  packages: PackagesService
  pricing: PricingService
  orders: OrdersService
  earnings: EarningsService
}) {
  const { sequelize, audit, settings, packages } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  const SHOP_SQL = `SELECT s.*, ${ACTIVE_AGENT_SQL} AS agent_active FROM shops s JOIN agents a ON a.id = s.agent_id`
  const present = (s: ShopRow & { agent_active?: boolean }): ShopView => ({
    id: s.id,
    slug: s.slug,
    name: s.name,
    description: s.description,
    whatsapp: s.whatsapp,
    accent: s.accent,
    status: s.status,
    open: s.status === 'ACTIVE' && s.agent_active !== false,
    whatsappOrders: !!s.whatsapp_orders
  })

  async function shopOfAgent(agentId: number, t?: Transaction) {
    const [row] = await q<ShopRow & { agent_active: boolean }>(`${SHOP_SQL} WHERE s.agent_id = :agentId`, { agentId }, t)
    return row ?? null
  }

  /** Every active package with the shop's floor, ceiling and (when listed) price. */
  async function priceLines(shopId: number | null, agentId: number, s: Settings): Promise<PriceLine[]> {
    const saved = new Map<number, number>()
    if (shopId)
      for (const r of await q<{ package_id: number; price_pesewas: string }>('SELECT package_id, price_pesewas FROM shop_prices WHERE shop_id = :shopId', {
        shopId
      }))
        saved.set(r.package_id, Number(r.price_pesewas))
    const list = await packages.listActive()
    const floors = await deps.pricing.agentPrices(agentId, list)
    return list.map((p) => {
      const floor = floors.get(p.id)!.pricePesewas
      return {
        packageId: p.id,
        network: p.network,
        name: packages.present(p).name,
        sizeMB: p.sizeMb,
        ...priceFields(saved.get(p.id), floor, ceilingOf(floor, s))
      }
    })
  }

  /** The shop's sales figures (paid and still paid orders) and margins earned (net of reversals). */
  async function figures(shopIds: number[]) {
    if (!shopIds.length) return new Map<number, { salesCount: number; salesAmount: number; marginEarned: number }>()
    const rows = await q<{ shop_id: number; n: string; amount: string | null; margin: string | null }>(
      // Bundle orders and checker sales (cards allocated) still paid alike; margins are the shop agent's (one shop per agent).
      `SELECT s.id AS shop_id,
              (SELECT count(*) FROM orders o WHERE o.shop_id = s.id AND o.payment_status = 'SUCCESS')
                + (SELECT count(*) FROM shop_checker_sales c JOIN payments p ON p.transaction_id = c.payment_transaction_id AND p.status = 'SUCCESS' WHERE c.shop_id = s.id) AS n,
              (SELECT coalesce(sum(o.amount_pesewas), 0) FROM orders o WHERE o.shop_id = s.id AND o.payment_status = 'SUCCESS')
                + (SELECT coalesce(sum(c.amount_pesewas), 0) FROM shop_checker_sales c JOIN payments p ON p.transaction_id = c.payment_transaction_id AND p.status = 'SUCCESS' WHERE c.shop_id = s.id) AS amount,
              (SELECT sum(e.amount_pesewas) FROM earnings_entries e
                WHERE e.agent_id = s.agent_id AND e.type IN ('MARGIN','MARGIN_REVERSAL')) AS margin
         FROM shops s WHERE s.id IN (:shopIds)`,
      { shopIds }
    )
    return new Map(
      rows.map((r) => [r.shop_id, { salesCount: Number(r.n), salesAmount: toGhs(Number(r.amount ?? 0))!, marginEarned: toGhs(Number(r.margin ?? 0))! }])
    )
  }

  /** Open shop by current slug, or where an old slug now points. */
  async function resolve(rawSlug: unknown): Promise<{ shop: ShopRow & { agent_active: boolean } } | { redirect: string } | null> {
    const slug = String(rawSlug ?? '')
      .trim()
      .toLowerCase()
    if (!slug || slug.length > 30) return null
    const [row] = await q<ShopRow & { agent_active: boolean }>(`${SHOP_SQL} WHERE s.slug = :slug`, { slug })
    if (row) return { shop: row }
    const [old] = await q<{ slug: string }>('SELECT s.slug FROM shop_slug_history h JOIN shops s ON s.id = h.shop_id WHERE h.slug = :slug', { slug })
    return old ? { redirect: old.slug } : null
  }

  /** The price a listed package sells at now in this shop, with its floor; null when the shop does not sell it. */
  async function currentPrice(shop: { id: number; agent_id: number }, pkg: PackageRow, s: Settings, t?: Transaction, lock = false) {
    const [r] = await q<{ price_pesewas: string }>(
      `SELECT price_pesewas FROM shop_prices WHERE shop_id = :shopId AND package_id = :pid${lock ? ' FOR SHARE' : ''}`,
      { shopId: shop.id, pid: pkg.id },
      t
    )
    if (!r) return null
    // The floor is what the shop's agent itself pays (its tier's price, or its parent's price for it: ADR 0041).
    const cost: Quote = (await deps.pricing.agentPrices(shop.agent_id, [pkg], t)).get(pkg.id)!
    const floor = cost.pricePesewas
    return { price: sellingPrice(Number(r.price_pesewas), floor, ceilingOf(floor, s)), floor, parent: cost.parent }
  }

  const priceChanged = (pricePesewas: number) => new AppError(409, PRICE_CHANGED, { price: toGhs(pricePesewas) })

  /** Delivery reached DELIVERED or MANUAL: the shop order's margin, once, in that change's transaction. */
  async function creditMargin(
    order: { id: number; shop_id?: number | null; shop_agent_id?: number | null; shop_margin_pesewas?: number | string | null },
    t: Transaction
  ) {
    const margin = Number(order.shop_margin_pesewas ?? 0)
    if (!order.shop_id || !order.shop_agent_id || !(margin > 0)) return null
    const { entry, balancePesewas } = await deps.earnings.post(
      { type: 'MARGIN', agentId: order.shop_agent_id, orderId: order.id, amountPesewas: margin, reason: `Shop margin on order #${order.id}` },
      t
    )
    if (entry) {
      await audit.record(
        {
          action: 'SHOP_MARGIN_CREDITED',
          resource: 'ORDER',
          resourceId: order.id,
          details: { shopId: order.shop_id, agentId: order.shop_agent_id, margin: toGhs(margin), earnings: toGhs(balancePesewas) }
        },
        { transaction: t }
      )
    }
    return entry
  }

  /**
   * A visitor's purchase through the shop, checked: the body carries the price the buyer confirmed, and
   * the order is placed at exactly that price or refused with 409 and the current price. The price is
   * checked again inside the order's transaction, under a share lock on the price row that an agent's
   * price change must wait for, so no buyer is ever charged a price they did not confirm.
   */
  async function shopOrder(rawSlug: unknown, body: unknown): Promise<{ input: PlaceOrderInput; shop: ShopQuote }> {
    const found = await resolve(rawSlug)
    if (!found || 'redirect' in found) throw notFound('Shop not found')
    const shop = found.shop
    if (!present(shop).open) throw new AppError(410, SHOP_CLOSED)
    const { value, error } = orderBodySchema.validate(body ?? {})
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const input = (body ?? {}) as PlaceOrderInput & Record<string, unknown>
    const pkg = await packages.getActive(Number(input.packageId))
    if (!pkg) throw badRequest('Please select a package')
    const s = await settings.getFresh()
    const now = await currentPrice(shop, pkg, s)
    if (!now) throw badRequest('This bundle is not sold in this shop')
    const confirmed = toPesewas(value.price)
    if (now.price !== confirmed) throw priceChanged(now.price)
    const { payFrom: _ignored, ...rest } = input
    const quote: ShopQuote = {
      shopId: shop.id,
      agentId: shop.agent_id,
      pricePesewas: confirmed,
      agentPricePesewas: now.floor,
      parent: now.parent,
      recheck: async (t) => {
        const [open] = await q<{ ok: boolean }>(
          `SELECT (s.status = 'ACTIVE' AND ${ACTIVE_AGENT_SQL}) AS ok FROM shops s JOIN agents a ON a.id = s.agent_id WHERE s.id = :id FOR SHARE OF s`,
          { id: shop.id },
          t
        )
        if (!open?.ok) throw new AppError(410, SHOP_CLOSED)
        const again = await currentPrice(shop, pkg, s, t, true)
        if (!again) throw badRequest('This bundle is not sold in this shop')
        if (again.price !== confirmed || again.floor !== now.floor || again.parent?.pricePesewas !== now.parent?.pricePesewas) throw priceChanged(again.price)
      }
    }
    return { input: { ...rest, packageId: pkg.id }, shop: quote }
  }

  /** What /shop/<slug> shows: the shop and its bundles, a redirect for an old slug, or null. */
  async function publicView(rawSlug: unknown): Promise<{ redirect: string } | { shop: ShopView; packages: ShopPackage[] } | null> {
    const found = await resolve(rawSlug)
    if (!found || 'redirect' in found) return found
    const shop = present(found.shop)
    if (!shop.open) return { shop, packages: [] }
    const lines = await priceLines(shop.id, found.shop.agent_id, await settings.get())
    return {
      shop,
      packages: lines
        .filter((l) => l.listed && l.price !== null)
        .map((l) => ({ id: l.packageId, network: l.network, name: l.name, sizeMB: l.sizeMB, price: l.price! }))
    }
  }

  /** A few of the shop's prices as text (link previews: og:description and the card). */
  const priceTexts = (list: ShopPackage[], n = 3) =>
    [...list]
      .sort((a, b) => a.price - b.price)
      .slice(0, n)
      .map((p) => `${p.name} ${formatCedis(p.price)}`)
  const cards = new Map<string, Buffer>()
  const listeners = new Set<(shopId: number | null) => void>()
  /** `null`: any shop may have changed. */
  const changed = (shopId: number | null) => {
    for (const fn of listeners) fn(shopId)
  }

  return {
    present,
    /** Called when a shop's page may show something else (its row, prices or agent; `null` for any shop): here at once, elsewhere by NOTIFY. */
    onChange(fn: (shopId: number | null) => void): () => void {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    changed,
    resolve,
    ofAgent: shopOfAgent,
    priceLines,
    priceTexts,
    qrSvg,

    /** The link-preview card (PNG) of a shop, or null for an unknown slug. Kept in memory per shop state. */
    async ogImage(rawSlug: unknown): Promise<Buffer | null> {
      const view = await publicView(rawSlug)
      if (!view || 'redirect' in view) return null
      const input = {
        name: view.shop.name,
        accent: view.shop.accent,
        siteName: (await settings.get()).siteName,
        lines: priceTexts(view.packages),
        closed: !view.shop.open
      }
      const key = JSON.stringify(input)
      let png = cards.get(key)
      if (!png) {
        png = shopCardPng(input)
        if (cards.size >= 200) cards.delete(cards.keys().next().value!)
        cards.set(key, png)
      }
      return png
    },

    /** The signed-in agent's shop (null before it is created), its price lines, figures and the limits. */
    async mine(ctx: Ctx) {
      const agent = requireActiveAgent(ctx, 'Shops')
      const [row, s] = await Promise.all([shopOfAgent(agent.id), settings.getFresh()])
      const lines = await priceLines(row?.id ?? null, agent.id, s)
      const fig = row ? (await figures([row.id])).get(row.id) : undefined
      return {
        shop: row ? present(row) : null,
        prices: lines,
        figures: fig ?? { salesCount: 0, salesAmount: 0, marginEarned: 0 },
        limits: { maxMarkupType: s.shopMaxMarkupType, maxMarkupValue: s.shopMaxMarkupValue },
        palette: ACCENT_PALETTE
      }
    },

    /** Creates or edits the agent's shop. A new slug keeps the old one as a redirect. */
    async saveMine(body: unknown, ctx: Ctx): Promise<ShopView> {
      const agent = requireActiveAgent(ctx, 'Shops')
      const raw = (body ?? {}) as Record<string, unknown>
      const slug = checkSlug(raw.slug)
      const { value, error } = shopSchema.validate(raw)
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const accent = raw.accent === undefined || raw.accent === '' ? ACCENT_PALETTE[0] : checkAccent(raw.accent)
      try {
        const saved = await sequelize.transaction(async (t) => {
          const before = await shopOfAgent(agent.id, t)
          // An old link of another shop stays that shop's redirect: never handed to someone else.
          const [held] = await q<{ shop_id: number }>('SELECT shop_id FROM shop_slug_history WHERE slug = :slug', { slug }, t)
          if (held && held.shop_id !== before?.id) throw conflict('This shop link is already taken. Please choose another')
          let row: ShopRow
          if (!before) {
            ;[row] = (await q<ShopRow>(
              `INSERT INTO shops (agent_id, slug, name, description, whatsapp, accent) VALUES (:agentId, :slug, :name, :description, :whatsapp, :accent) RETURNING *`,
              { agentId: agent.id, slug, name: value.name, description: value.description, whatsapp: value.whatsapp, accent },
              t
            )) as [ShopRow]
          } else {
            if (before.slug !== slug) {
              await q('DELETE FROM shop_slug_history WHERE slug = :slug AND shop_id = :id RETURNING slug', { slug, id: before.id }, t)
              await q(
                'INSERT INTO shop_slug_history (slug, shop_id) VALUES (:old, :id) ON CONFLICT (slug) DO NOTHING RETURNING slug',
                { old: before.slug, id: before.id },
                t
              )
            }
            ;[row] = (await q<ShopRow>(
              `UPDATE shops SET slug = :slug, name = :name, description = :description, whatsapp = :whatsapp, accent = :accent, updated_at = now() WHERE id = :id RETURNING *`,
              { id: before.id, slug, name: value.name, description: value.description, whatsapp: value.whatsapp, accent },
              t
            )) as [ShopRow]
          }
          await audit.record(
            {
              action: before ? 'SHOP_UPDATED' : 'SHOP_CREATED',
              resource: 'SHOP',
              resourceId: row.id,
              details: { slug, ...(before && before.slug !== slug ? { previousSlug: before.slug } : {}), name: row.name, accent }
            },
            { ...ctx, transaction: t }
          )
          return present({ ...row, agent_active: true })
        })
        // The trigger's NOTIFY reaches this instance too, but a moment after the answer: the agent reloading its page must see the change.
        changed(saved.id)
        return saved
      } catch (err) {
        if (err instanceof UniqueConstraintError) throw conflict('This shop link is already taken. Please choose another')
        throw err
      }
    },

    /** Sets (or with price null, stops) the agent's price per bundle; each between its agent price and today's ceiling. */
    async setPrices(body: unknown, ctx: Ctx): Promise<PriceLine[]> {
      const agent = requireActiveAgent(ctx, 'Shops')
      const shop = await shopOfAgent(agent.id)
      if (!shop) throw badRequest('Create your shop first')
      const s = await settings.getFresh()
      const list = await packages.listActive()
      const floors = await deps.pricing.agentPrices(agent.id, list)
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
      return priceLines(shop.id, agent.id, s)
    },

    publicView,

    /** A visitor buys through the shop at the price they confirmed (checked as `shopOrder` says) and pays at once. */
    async placeOrder(rawSlug: unknown, body: unknown, ctx: Ctx = {}, opts: Pick<PlaceOptions, 'andThen'> = {}) {
      const { input, shop } = await shopOrder(rawSlug, body)
      return deps.orders.placeOrder({ ...input, payFrom: 'gateway' }, ctx, { ...opts, shop })
    },

    /** The same sale at the confirmed price, left unpaid: paid later through a payment link (WhatsApp). */
    async createUnpaidOrder(rawSlug: unknown, body: unknown, ctx: Ctx = {}, opts: Pick<PlaceOptions, 'andThen'> = {}) {
      const { input, shop } = await shopOrder(rawSlug, body)
      return deps.orders.createOrder(input, ctx, { ...opts, shop })
    },

    /** Turns ordering in the WhatsApp chat on or off; only an open shop of an active agent may turn it on. Audited. */
    async setWhatsappOrders(body: unknown, ctx: Ctx): Promise<ShopView> {
      const agent = requireActiveAgent(ctx, 'Shops')
      const on = (body as { on?: unknown } | null)?.on
      if (typeof on !== 'boolean') throw badRequest('Send on: true or false')
      const shop = await shopOfAgent(agent.id)
      if (!shop) throw badRequest('Create your shop first')
      if (on && !present(shop).open) throw conflict('Your shop is closed: it cannot take WhatsApp orders until it is reopened')
      const view = await sequelize.transaction(async (t) => {
        const [row] = (await q<ShopRow>(`UPDATE shops SET whatsapp_orders = :on, updated_at = now() WHERE id = :id RETURNING *`, { on, id: shop.id }, t)) as [
          ShopRow
        ]
        await audit.record({ action: 'SHOP_UPDATED', resource: 'SHOP', resourceId: shop.id, details: { whatsappOrders: on } }, { ...ctx, transaction: t })
        return present({ ...row, agent_active: true })
      })
      changed(shop.id)
      return view
    },

    /** The shop a WhatsApp chat names, when it takes orders there now (open, agent active, switched on); else null. */
    async forChat(rawSlug: unknown): Promise<{ slug: string; name: string } | null> {
      let found = await resolve(rawSlug)
      // An old link still names the shop.
      if (found && 'redirect' in found) found = await resolve(found.redirect)
      if (!found || 'redirect' in found) return null
      const view = present(found.shop)
      return view.open && view.whatsappOrders ? { slug: view.slug, name: view.name } : null
    },

    creditMargin,

    /** The orders export delivered these orders by hand (MANUAL through order_exports, ADR 0021): each shop order among them earns its margin, in the export's transaction. */
    async creditMarginsOfExport(stamp: string, t: Transaction) {
      const rows = await q<{ id: number; shop_id: number; shop_agent_id: number; shop_margin_pesewas: string }>(
        `SELECT o.id, o.shop_id, o.shop_agent_id, o.shop_margin_pesewas FROM order_exports e JOIN orders o ON o.id = e.order_id
          WHERE e.exported_at = :stamp::timestamptz AND o.shop_id IS NOT NULL ORDER BY o.shop_agent_id, o.id`,
        { stamp },
        t
      )
      for (const r of rows) await creditMargin(r, t)
    },

    /** A refund or reversal of a shop order whose margin was credited takes that margin back, once. */
    async reverseMargin(orderId: number, why: 'refund' | 'reversal', ctx: Ctx & { transaction: Transaction }) {
      const t = ctx.transaction
      const [credited] = await q<{ agent_id: number; amount_pesewas: string; shop_id: number }>(
        `SELECT e.agent_id, e.amount_pesewas, o.shop_id FROM earnings_entries e JOIN orders o ON o.id = e.order_id WHERE e.order_id = :orderId AND e.type = 'MARGIN' AND o.shop_id IS NOT NULL`,
        { orderId },
        t
      )
      if (!credited) return null
      const amount = Number(credited.amount_pesewas)
      const { entry, balancePesewas } = await deps.earnings.post(
        {
          type: 'MARGIN_REVERSAL',
          agentId: credited.agent_id,
          orderId,
          amountPesewas: -amount,
          reason: `Shop margin taken back: order #${orderId} ${why === 'refund' ? 'refunded' : 'reversed'}`
        },
        t
      )
      if (entry) {
        await audit.record(
          {
            action: 'SHOP_MARGIN_REVERSED',
            resource: 'ORDER',
            resourceId: orderId,
            severity: 'HIGH',
            details: { shopId: credited.shop_id, agentId: credited.agent_id, margin: toGhs(amount), why, earnings: toGhs(balancePesewas) }
          },
          ctx
        )
      }
      return entry
    },

    /** Sales and margins per day over the last `days` days (the agent's chart and its table). */
    async series(ctx: Ctx, days = 30) {
      const agent = requireActiveAgent(ctx, 'Shops')
      const n = Math.min(Math.max(1, Math.trunc(days) || 30), 365)
      const rows = await q<{ day: string; sales: string; amount: string; margin: string }>(
        `WITH d AS (SELECT generate_series((now() AT TIME ZONE 'UTC')::date - (:n - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day)
         SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
                (SELECT count(*) FROM orders o WHERE o.shop_agent_id = :agentId AND o.payment_status = 'SUCCESS' AND (o.created_at AT TIME ZONE 'UTC')::date = d.day)
                  + (SELECT count(*) FROM shop_checker_sales c JOIN payments p ON p.transaction_id = c.payment_transaction_id AND p.status = 'SUCCESS' WHERE c.agent_id = :agentId AND (c.created_at AT TIME ZONE 'UTC')::date = d.day) AS sales,
                (SELECT coalesce(sum(o.amount_pesewas), 0) FROM orders o WHERE o.shop_agent_id = :agentId AND o.payment_status = 'SUCCESS' AND (o.created_at AT TIME ZONE 'UTC')::date = d.day)
                  + (SELECT coalesce(sum(c.amount_pesewas), 0) FROM shop_checker_sales c JOIN payments p ON p.transaction_id = c.payment_transaction_id AND p.status = 'SUCCESS' WHERE c.agent_id = :agentId AND (c.created_at AT TIME ZONE 'UTC')::date = d.day) AS amount,
                (SELECT coalesce(sum(e.amount_pesewas), 0) FROM earnings_entries e WHERE e.agent_id = :agentId AND e.type IN ('MARGIN','MARGIN_REVERSAL') AND (e.created_at AT TIME ZONE 'UTC')::date = d.day) AS margin
           FROM d ORDER BY d.day`,
        { n, agentId: agent.id }
      )
      return rows.map((r) => ({ day: r.day, sales: Number(r.sales), amount: toGhs(Number(r.amount))!, margin: toGhs(Number(r.margin))! }))
    },

    /** Admin: every shop with its agent, status and figures. */
    async list() {
      const rows = await q<ShopRow & { agent_active: boolean; agent_name: string; agent_phone: string }>(
        `SELECT s.*, ${ACTIVE_AGENT_SQL} AS agent_active, a.name AS agent_name, a.phone AS agent_phone FROM shops s JOIN agents a ON a.id = s.agent_id ORDER BY s.created_at DESC, s.id DESC LIMIT 1000`
      )
      const fig = await figures(rows.map((r) => r.id))
      return {
        shops: rows.map((r) => ({
          ...present(r),
          agentId: r.agent_id,
          agentName: r.agent_name,
          agentPhone: r.agent_phone,
          suspendedReason: r.suspended_reason,
          createdAt: new Date(r.created_at).toISOString(),
          ...fig.get(r.id)!
        }))
      }
    },

    /** Admin: suspend (its page says it is closed, nothing can be bought) or reopen a shop; audited. */
    async setStatus(id: unknown, status: 'ACTIVE' | 'SUSPENDED', reason: unknown, ctx: Ctx) {
      const shopId = Number(id)
      if (!Number.isSafeInteger(shopId) || shopId <= 0 || shopId > 2_147_483_647) throw badRequest('Invalid shop id')
      const why = String(reason ?? '')
        .trim()
        .slice(0, 300)
      if (status === 'SUSPENDED' && !why) throw badRequest('Please give a reason for suspending the shop')
      const view = await sequelize.transaction(async (t) => {
        const [row] = await q<ShopRow>(
          `UPDATE shops SET status = :status, suspended_reason = :why, updated_at = now() WHERE id = :id AND status <> :status RETURNING *`,
          { id: shopId, status, why: status === 'SUSPENDED' ? why : null },
          t
        )
        if (!row) {
          const [exists] = await q<{ id: number }>('SELECT id FROM shops WHERE id = :id', { id: shopId }, t)
          if (!exists) throw notFound('Shop not found')
          throw conflict(status === 'SUSPENDED' ? 'This shop is already suspended' : 'This shop is not suspended')
        }
        await audit.record(
          {
            action: status === 'SUSPENDED' ? 'SHOP_SUSPENDED' : 'SHOP_UNSUSPENDED',
            resource: 'SHOP',
            resourceId: shopId,
            severity: 'MEDIUM',
            details: { slug: row.slug, reason: why || undefined }
          },
          { ...ctx, transaction: t }
        )
        return present(row)
      })
      changed(shopId)
      return view
    }
  }
}
