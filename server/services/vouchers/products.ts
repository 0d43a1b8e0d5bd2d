import type { Sequelize, Transaction } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas, type Pesewas } from '../../lib/money.ts'
import { isUniqueViolation } from '../../../models/prepared.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx } from '../context.ts'
import { createVoucherQueries, type ProductRow, type ProductWrite, type StockCounts } from './queries.ts'

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
export type ProductInput = Omit<ProductWrite, 'priceAgent' | 'shopCeiling' | 'threshold'> & {
  priceAgent: number | '' | null
  shopCeiling: number | '' | null
  lowStockThreshold: number
}

const orNull = (v: unknown) => (v === null || v === undefined || v === '' ? null : toPesewas(v as number))

/** What an agent pays for a card: the agent price, or the user price when the product has none. */
export const agentPriceOf = (p: Pick<ProductRow, 'priceUserPesewas' | 'priceAgentPesewas'>): Pesewas => p.priceAgentPesewas ?? p.priceUserPesewas

/** The most an agent's shop may charge for a card: the product's shop ceiling, else its user price. */
export const shopCeilingOf = (p: Pick<ProductRow, 'priceUserPesewas' | 'shopCeilingPesewas'>): Pesewas => p.shopCeilingPesewas ?? p.priceUserPesewas

/** The price a buyer pays: an approved agent pays the agent price when there is one. */
export function unitPriceFor(p: Pick<ProductRow, 'priceUserPesewas' | 'priceAgentPesewas'>, actor?: Actor | null): Pesewas {
  const agent = actor?.role === 'AGENT' && actor.agent?.approved === true
  return agent ? agentPriceOf(p) : p.priceUserPesewas
}

/** A product as a buyer sees it, at the price given (the buyer's, or a shop's). */
export const publicView = (r: ProductRow, pricePesewas: Pesewas, counts: Map<number, StockCounts>): PublicProductView => ({
  id: r.id,
  name: r.name,
  howToUse: r.howToUse,
  checkingUrl: r.checkingUrl,
  price: toGhs(pricePesewas),
  inStock: (counts.get(r.id)?.available ?? 0) > 0
})

export function createProducts(deps: { sequelize: Sequelize; audit: AuditService }) {
  const { sequelize, audit } = deps
  const queries = createVoucherQueries(sequelize)
  const countsOf = queries.countsOf

  /** The products on sale as rows, with their stock counts (agents' shops price them). */
  async function activeRows(): Promise<{ rows: ProductRow[]; counts: Map<number, StockCounts> }> {
    const rows = await queries.activeProducts()
    return { rows, counts: await countsOf(rows.map((r) => r.id)) }
  }

  async function load(id: unknown, t?: Transaction): Promise<ProductRow> {
    const n = Number(id)
    if (!Number.isInteger(n) || n <= 0) throw badRequest('Invalid product')
    const row = await queries.product(n, t)
    if (!row) throw notFound('Product not found')
    return row
  }

  /** The prices' rules between each other (each field was checked at the edge). */
  function rowOf(value: ProductInput): ProductWrite {
    const row: ProductWrite = {
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
    howToUse: r.howToUse,
    checkingUrl: r.checkingUrl,
    priceUser: toGhs(r.priceUserPesewas)!,
    priceAgent: r.priceAgentPesewas === null ? null : toGhs(r.priceAgentPesewas)!,
    shopCeiling: r.shopCeilingPesewas === null ? null : toGhs(r.shopCeilingPesewas)!,
    active: r.active,
    lowStockThreshold: r.lowStockThreshold,
    stock
  })

  async function save(id: number | null, input: ProductInput, ctx: Ctx): Promise<AdminProductView> {
    const v = rowOf(input)
    try {
      const row = await queries.saveProduct(id, v)
      if (!row) throw notFound('Product not found')
      await audit.record(
        {
          action: id === null ? 'VOUCHER_PRODUCT_CREATED' : 'VOUCHER_PRODUCT_UPDATED',
          resource: 'VOUCHER_PRODUCT',
          resourceId: row.id,
          severity: 'MEDIUM',
          details: { name: row.name, priceUser: toGhs(row.priceUserPesewas), active: row.active }
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
      const rows = await queries.allProducts()
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
