import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas, type Pesewas } from '../../lib/money.ts'
import { isUniqueViolation } from '../../../models/prepared.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx } from '../context.ts'

export interface ProductRow {
  id: number
  name: string
  how_to_use: string
  checking_url: string
  price_user_pesewas: number
  price_agent_pesewas: number | null
  shop_ceiling_pesewas: number | null
  active: boolean
  low_stock_threshold: number
  low_stock_alerted_at: Date | null
}

export interface StockCounts {
  available: number
  sold: number
  expired: number
  voided: number
}

/** The admin's view: prices in GHS, stock counts beside them. */
export interface AdminProductView {
  id: number
  name: string
  howToUse: string
  checkingUrl: string
  priceUser: number
  priceAgent: number | null
  shopCeiling: number | null
  active: boolean
  lowStockThreshold: number
  stock: StockCounts
}

/** What a buyer sees: the price for them and whether cards are in stock (never how many). */
export interface PublicProductView {
  id: number
  name: string
  howToUse: string
  checkingUrl: string
  price: number
  inStock: boolean
}

/** A product as the admin saves it, checked at the edge (routes/vouchers/schema.ts); prices in GHS, '' or null for none. */
export interface ProductInput {
  name: string
  howToUse: string
  checkingUrl: string
  priceUser: number
  priceAgent: number | '' | null
  shopCeiling: number | '' | null
  active: boolean
  lowStockThreshold: number
}

const orNull = (v: unknown) => (v === null || v === undefined || v === '' ? null : toPesewas(v as number))

/** What an agent pays for a card: the agent price, or the user price when the product has none. */
export const agentPriceOf = (p: Pick<ProductRow, 'price_user_pesewas' | 'price_agent_pesewas'>): Pesewas => p.price_agent_pesewas ?? p.price_user_pesewas

/** The most an agent's shop may charge for a card: the product's shop ceiling, else its user price. */
export const shopCeilingOf = (p: Pick<ProductRow, 'price_user_pesewas' | 'shop_ceiling_pesewas'>): Pesewas => p.shop_ceiling_pesewas ?? p.price_user_pesewas

/** The price a buyer pays: an approved agent pays the agent price when there is one. */
export function unitPriceFor(p: Pick<ProductRow, 'price_user_pesewas' | 'price_agent_pesewas'>, actor?: Actor | null): Pesewas {
  const agent = actor?.role === 'AGENT' && actor.agent?.approved === true
  return agent ? agentPriceOf(p) : p.price_user_pesewas
}

/** A product as a buyer sees it, at the price given (the buyer's, or a shop's). */
export const publicView = (r: ProductRow, pricePesewas: Pesewas, counts: Map<number, StockCounts>): PublicProductView => ({
  id: r.id,
  name: r.name,
  howToUse: r.how_to_use,
  checkingUrl: r.checking_url,
  price: toGhs(pricePesewas),
  inStock: (counts.get(r.id)?.available ?? 0) > 0
})

export const AVAILABLE_SQL = `status = 'AVAILABLE' AND (expires_on IS NULL OR expires_on >= current_date)`

export function createProducts(deps: { sequelize: Sequelize; audit: AuditService }) {
  const { sequelize, audit } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  async function countsOf(ids: number[]): Promise<Map<number, StockCounts>> {
    const rows = await sequelize.query<{ product_id: number; available: string; sold: string; expired: string; voided: string }>(
      `SELECT product_id,
              count(*) FILTER (WHERE ${AVAILABLE_SQL}) AS available,
              count(*) FILTER (WHERE status = 'SOLD') AS sold,
              count(*) FILTER (WHERE status = 'AVAILABLE' AND expires_on < current_date) AS expired,
              count(*) FILTER (WHERE status = 'VOID') AS voided
         FROM voucher_cards WHERE product_id = ANY($1::int[]) GROUP BY product_id`,
      { bind: [ids], type: QueryTypes.SELECT }
    )
    return new Map(
      rows.map((r) => [r.product_id, { available: Number(r.available), sold: Number(r.sold), expired: Number(r.expired), voided: Number(r.voided) }])
    )
  }

  /** The products on sale as rows, with their stock counts (agents' shops price them). */
  async function activeRows(): Promise<{ rows: ProductRow[]; counts: Map<number, StockCounts> }> {
    const rows = await q<ProductRow>('SELECT * FROM voucher_products WHERE active ORDER BY name', {})
    return { rows, counts: await countsOf(rows.map((r) => r.id)) }
  }

  async function load(id: unknown, t?: Transaction): Promise<ProductRow> {
    const n = Number(id)
    if (!Number.isInteger(n) || n <= 0) throw badRequest('Invalid product')
    const [row] = await q<ProductRow>('SELECT * FROM voucher_products WHERE id = :id', { id: n }, t)
    if (!row) throw notFound('Product not found')
    return row
  }

  /** The prices' rules between each other (each field was checked at the edge). */
  function rowOf(value: ProductInput) {
    const row = {
      name: value.name,
      howToUse: value.howToUse,
      checkingUrl: value.checkingUrl,
      priceUser: toPesewas(value.priceUser),
      priceAgent: orNull(value.priceAgent),
      shopCeiling: orNull(value.shopCeiling),
      active: value.active,
      threshold: value.lowStockThreshold
    }
    if (row.priceAgent !== null && row.priceAgent > row.priceUser) throw badRequest('Agent price cannot be above the user price')
    if (row.shopCeiling !== null && row.shopCeiling < (row.priceAgent ?? row.priceUser)) throw badRequest('Agent-shop ceiling cannot be below the agent price')
    return row
  }

  const present = (r: ProductRow, stock: StockCounts = { available: 0, sold: 0, expired: 0, voided: 0 }): AdminProductView => ({
    id: r.id,
    name: r.name,
    howToUse: r.how_to_use,
    checkingUrl: r.checking_url,
    priceUser: toGhs(r.price_user_pesewas)!,
    priceAgent: r.price_agent_pesewas === null ? null : toGhs(r.price_agent_pesewas)!,
    shopCeiling: r.shop_ceiling_pesewas === null ? null : toGhs(r.shop_ceiling_pesewas)!,
    active: r.active,
    lowStockThreshold: r.low_stock_threshold,
    stock
  })

  async function save(id: number | null, input: ProductInput, ctx: Ctx): Promise<AdminProductView> {
    const v = rowOf(input)
    try {
      const [row] = await q<ProductRow>(
        id === null
          ? `INSERT INTO voucher_products (name, how_to_use, checking_url, price_user_pesewas, price_agent_pesewas, shop_ceiling_pesewas, active, low_stock_threshold)
             VALUES (:name, :howToUse, :checkingUrl, :priceUser, :priceAgent, :shopCeiling, :active, :threshold) RETURNING *`
          : `UPDATE voucher_products SET name = :name, how_to_use = :howToUse, checking_url = :checkingUrl, price_user_pesewas = :priceUser,
               price_agent_pesewas = :priceAgent, shop_ceiling_pesewas = :shopCeiling, active = :active, low_stock_threshold = :threshold, updated_at = now()
             WHERE id = :id RETURNING *`,
        { ...v, id }
      )
      if (!row) throw notFound('Product not found')
      await audit.record(
        {
          action: id === null ? 'VOUCHER_PRODUCT_CREATED' : 'VOUCHER_PRODUCT_UPDATED',
          resource: 'VOUCHER_PRODUCT',
          resourceId: row.id,
          severity: 'MEDIUM',
          details: { name: row.name, priceUser: toGhs(row.price_user_pesewas), active: row.active }
        },
        ctx
      )
      return present(row, (await countsOf([row.id])).get(row.id))
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('A product with this name already exists')
      throw err
    }
  }

  return {
    load,
    countsOf,
    create: (input: ProductInput, ctx: Ctx) => save(null, input, ctx),
    async update(id: unknown, input: ProductInput, ctx: Ctx) {
      return save((await load(id)).id, input, ctx)
    },
    activeRows,
    async listAdmin(): Promise<AdminProductView[]> {
      const rows = await q<ProductRow>('SELECT * FROM voucher_products ORDER BY name', {})
      const counts = await countsOf(rows.map((r) => r.id))
      return rows.map((r) => present(r, counts.get(r.id)))
    },
    async listPublic(actor?: Actor | null): Promise<PublicProductView[]> {
      const { rows, counts } = await activeRows()
      return rows.map((r) => publicView(r, unitPriceFor(r, actor), counts))
    }
  }
}

export type Products = ReturnType<typeof createProducts>
