import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { ACTIVE_AGENT_SQL } from '../../lib/vocabulary.ts'

// Every statement of the shops capability, and the typed camelCase rows they return: from here on
// nothing in shops reads a snake_case column or a count as a string.

export type ShopStatus = 'ACTIVE' | 'SUSPENDED'

export interface Shop {
  id: number
  agentId: number
  slug: string
  name: string
  description: string
  whatsapp: string
  accent: string
  status: ShopStatus
  whatsappOrders: boolean
  suspendedReason: string | null
  createdAt: Date
  updatedAt: Date
  /** Its agent still approved and paid; absent on a row a write returned (the writer knows). */
  agentActive?: boolean
}

export interface ListedShop extends Shop {
  agentName: string
  agentPhone: string
}

/** What a shop is editable by its agent: the fields its form sends. */
export interface ShopWrite {
  slug: string
  name: string
  description: string
  whatsapp: string
  accent: string
}

/** A shop's sales (paid bundle orders and checker sales) and margins earned, net of reversals, in pesewas. */
export interface ShopFigures {
  salesCount: number
  salesPesewas: number
  marginPesewas: number
}

/** One UTC day of the agent's shop: sales and their amount, margins earned (net). */
export interface ShopDay {
  day: string
  sales: number
  amountPesewas: number
  marginPesewas: number
}

/** A shop order whose margin the shop's agent earns when it is delivered. */
export interface ShopSale {
  id: number
  shopId: number
  shopAgentId: number
  shopMarginPesewas: number
}

/** The margin credited on a shop order: who got it and how much. */
export interface CreditedMargin {
  agentId: number
  shopId: number
  amountPesewas: number
}

type Raw = Record<string, any>

const toShop = (r: Raw): Shop => ({
  id: Number(r.id),
  agentId: Number(r.agent_id),
  slug: r.slug,
  name: r.name,
  description: r.description,
  whatsapp: r.whatsapp,
  accent: r.accent,
  status: r.status,
  whatsappOrders: !!r.whatsapp_orders,
  suspendedReason: r.suspended_reason ?? null,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  ...(r.agent_active === undefined ? {} : { agentActive: !!r.agent_active })
})

const SHOP_SQL = `SELECT s.*, ${ACTIVE_AGENT_SQL} AS agent_active FROM shops s JOIN agents a ON a.id = s.agent_id`

// Bundle orders and checker sales (cards allocated) still paid alike.
const PAID_CHECKER_SALES = "shop_checker_sales c JOIN payments p ON p.transaction_id = c.payment_transaction_id AND p.status = 'SUCCESS'"

export type ShopQueries = ReturnType<typeof createShopQueries>

export function createShopQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const one = async (sql: string, replacements: Record<string, unknown>, t?: Transaction) => {
    const [row] = await q(sql, replacements, t)
    return row ? toShop(row) : null
  }

  return {
    byAgent: (agentId: number, t?: Transaction) => one(`${SHOP_SQL} WHERE s.agent_id = :agentId`, { agentId }, t),

    bySlug: (slug: string) => one(`${SHOP_SQL} WHERE s.slug = :slug`, { slug }),

    /** The current slug of the shop that once had this one, or null. */
    async slugNowOf(oldSlug: string): Promise<string | null> {
      const [row] = await q<{ slug: string }>('SELECT s.slug FROM shop_slug_history h JOIN shops s ON s.id = h.shop_id WHERE h.slug = :slug', { slug: oldSlug })
      return row?.slug ?? null
    },

    /** The shop an old slug still points to, or null. */
    async oldSlugHolder(slug: string, t: Transaction): Promise<number | null> {
      const [row] = await q<{ shop_id: number }>('SELECT shop_id FROM shop_slug_history WHERE slug = :slug', { slug }, t)
      return row ? Number(row.shop_id) : null
    },

    /** The price saved per listed package (pesewas). */
    async savedPrices(shopId: number): Promise<Map<number, number>> {
      const rows = await q('SELECT package_id, price_pesewas FROM shop_prices WHERE shop_id = :shopId', { shopId })
      return new Map(rows.map((r) => [Number(r.package_id), Number(r.price_pesewas)]))
    },

    /** One package's saved price, or null when not listed; `lock` holds the row against a price change (FOR SHARE). */
    async savedPrice(shopId: number, packageId: number, t?: Transaction, lock = false): Promise<number | null> {
      const [row] = await q(
        `SELECT price_pesewas FROM shop_prices WHERE shop_id = :shopId AND package_id = :pid${lock ? ' FOR SHARE' : ''}`,
        { shopId, pid: packageId },
        t
      )
      return row ? Number(row.price_pesewas) : null
    },

    /** Whether the shop is open now (active, its agent too), holding its row against a suspension until `t` ends. */
    async isOpenHeld(shopId: number, t: Transaction): Promise<boolean> {
      const [row] = await q(
        `SELECT (s.status = 'ACTIVE' AND ${ACTIVE_AGENT_SQL}) AS ok FROM shops s JOIN agents a ON a.id = s.agent_id WHERE s.id = :id FOR SHARE OF s`,
        { id: shopId },
        t
      )
      return !!row?.ok
    },

    async figures(shopIds: number[]): Promise<Map<number, ShopFigures>> {
      if (!shopIds.length) return new Map()
      const rows = await q(
        // Margins are the shop agent's (one shop per agent).
        `SELECT s.id AS shop_id,
                (SELECT count(*) FROM orders o WHERE o.shop_id = s.id AND o.payment_status = 'SUCCESS')
                  + (SELECT count(*) FROM ${PAID_CHECKER_SALES} WHERE c.shop_id = s.id) AS n,
                (SELECT coalesce(sum(o.amount_pesewas), 0) FROM orders o WHERE o.shop_id = s.id AND o.payment_status = 'SUCCESS')
                  + (SELECT coalesce(sum(c.amount_pesewas), 0) FROM ${PAID_CHECKER_SALES} WHERE c.shop_id = s.id) AS amount,
                (SELECT sum(e.amount_pesewas) FROM earnings_entries e
                  WHERE e.agent_id = s.agent_id AND e.type IN ('MARGIN','MARGIN_REVERSAL')) AS margin
           FROM shops s WHERE s.id IN (:shopIds)`,
        { shopIds }
      )
      return new Map(
        rows.map((r) => [Number(r.shop_id), { salesCount: Number(r.n), salesPesewas: Number(r.amount ?? 0), marginPesewas: Number(r.margin ?? 0) }])
      )
    },

    async insert(agentId: number, w: ShopWrite, t: Transaction): Promise<Shop> {
      const [row] = await q(
        `INSERT INTO shops (agent_id, slug, name, description, whatsapp, accent) VALUES (:agentId, :slug, :name, :description, :whatsapp, :accent) RETURNING *`,
        { agentId, ...w },
        t
      )
      return toShop(row!)
    },

    /** The shop's old slug stays its redirect (an old link of another shop is never taken over); its new one is no redirect any more. */
    async keepOldSlug(shopId: number, oldSlug: string, newSlug: string, t: Transaction): Promise<void> {
      await q('DELETE FROM shop_slug_history WHERE slug = :slug AND shop_id = :id RETURNING slug', { slug: newSlug, id: shopId }, t)
      await q('INSERT INTO shop_slug_history (slug, shop_id) VALUES (:old, :id) ON CONFLICT (slug) DO NOTHING RETURNING slug', { old: oldSlug, id: shopId }, t)
    },

    async update(shopId: number, w: ShopWrite, t: Transaction): Promise<Shop> {
      const [row] = await q(
        `UPDATE shops SET slug = :slug, name = :name, description = :description, whatsapp = :whatsapp, accent = :accent, updated_at = now() WHERE id = :id RETURNING *`,
        { id: shopId, ...w },
        t
      )
      return toShop(row!)
    },

    async setWhatsappOrders(shopId: number, on: boolean, t: Transaction): Promise<Shop> {
      const [row] = await q(`UPDATE shops SET whatsapp_orders = :on, updated_at = now() WHERE id = :id RETURNING *`, { on, id: shopId }, t)
      return toShop(row!)
    },

    /** Moves the shop to `status` (null when it is already there or does not exist). */
    async setStatus(shopId: number, status: ShopStatus, reason: string | null, t: Transaction): Promise<Shop | null> {
      const [row] = await q(
        `UPDATE shops SET status = :status, suspended_reason = :reason, updated_at = now() WHERE id = :id AND status <> :status RETURNING *`,
        { id: shopId, status, reason },
        t
      )
      return row ? toShop(row) : null
    },

    async exists(shopId: number, t: Transaction): Promise<boolean> {
      return (await q('SELECT id FROM shops WHERE id = :id', { id: shopId }, t)).length > 0
    },

    /** Every shop (the newest first, at most 1000) with its agent. */
    async listWithAgents(): Promise<ListedShop[]> {
      const rows = await q(
        `SELECT s.*, ${ACTIVE_AGENT_SQL} AS agent_active, a.name AS agent_name, a.phone AS agent_phone FROM shops s JOIN agents a ON a.id = s.agent_id ORDER BY s.created_at DESC, s.id DESC LIMIT 1000`
      )
      return rows.map((r) => ({ ...toShop(r), agentName: r.agent_name, agentPhone: r.agent_phone }))
    },

    /** The shop orders among those an export (its stamp) delivered by hand, by agent and id. */
    async shopSalesOfExport(stamp: string, t: Transaction): Promise<ShopSale[]> {
      const rows = await q(
        `SELECT o.id, o.shop_id, o.shop_agent_id, o.shop_margin_pesewas FROM order_exports e JOIN orders o ON o.id = e.order_id
          WHERE e.exported_at = :stamp::timestamptz AND o.shop_id IS NOT NULL ORDER BY o.shop_agent_id, o.id`,
        { stamp },
        t
      )
      return rows.map((r) => ({
        id: Number(r.id),
        shopId: Number(r.shop_id),
        shopAgentId: Number(r.shop_agent_id),
        shopMarginPesewas: Number(r.shop_margin_pesewas ?? 0)
      }))
    },

    /** The margin credited on a shop order, or null when none was. */
    async creditedMargin(orderId: number, t: Transaction): Promise<CreditedMargin | null> {
      const [row] = await q(
        `SELECT e.agent_id, e.amount_pesewas, o.shop_id FROM earnings_entries e JOIN orders o ON o.id = e.order_id WHERE e.order_id = :orderId AND e.type = 'MARGIN' AND o.shop_id IS NOT NULL`,
        { orderId },
        t
      )
      return row ? { agentId: Number(row.agent_id), shopId: Number(row.shop_id), amountPesewas: Number(row.amount_pesewas) } : null
    },

    /** The agent's shop per UTC day over the last `days` days, oldest first. */
    async daily(agentId: number, days: number): Promise<ShopDay[]> {
      const rows = await q(
        `WITH d AS (SELECT generate_series((now() AT TIME ZONE 'UTC')::date - (:n - 1), (now() AT TIME ZONE 'UTC')::date, interval '1 day')::date AS day)
         SELECT to_char(d.day, 'YYYY-MM-DD') AS day,
                (SELECT count(*) FROM orders o WHERE o.shop_agent_id = :agentId AND o.payment_status = 'SUCCESS' AND (o.created_at AT TIME ZONE 'UTC')::date = d.day)
                  + (SELECT count(*) FROM ${PAID_CHECKER_SALES} WHERE c.agent_id = :agentId AND (c.created_at AT TIME ZONE 'UTC')::date = d.day) AS sales,
                (SELECT coalesce(sum(o.amount_pesewas), 0) FROM orders o WHERE o.shop_agent_id = :agentId AND o.payment_status = 'SUCCESS' AND (o.created_at AT TIME ZONE 'UTC')::date = d.day)
                  + (SELECT coalesce(sum(c.amount_pesewas), 0) FROM ${PAID_CHECKER_SALES} WHERE c.agent_id = :agentId AND (c.created_at AT TIME ZONE 'UTC')::date = d.day) AS amount,
                (SELECT coalesce(sum(e.amount_pesewas), 0) FROM earnings_entries e WHERE e.agent_id = :agentId AND e.type IN ('MARGIN','MARGIN_REVERSAL') AND (e.created_at AT TIME ZONE 'UTC')::date = d.day) AS margin
           FROM d ORDER BY d.day`,
        { n: days, agentId }
      )
      return rows.map((r) => ({ day: r.day, sales: Number(r.sales), amountPesewas: Number(r.amount), marginPesewas: Number(r.margin) }))
    }
  }
}
