import type { Sequelize, Transaction } from 'sequelize'
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import { requireActiveAgent } from '../agents/index.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { EarningsService } from '../earnings/index.ts'
import type { PaymentRow } from '../payments/provider.ts'
import type { PaymentView } from '../payments/index.ts'
import { PRICE_CHANGED, SHOP_CLOSED, type ShopsService } from '../shops/index.ts'
import { priceFields, sellingPrice, type ShopPriceFields } from '../shops/rules.ts'
import { publicView, type ProductRow, type PublicProductView, type VouchersService, type Wanted } from '../vouchers/index.ts'
import { createShopCheckerQueries } from './queries.ts'
import { checkerPricesSchema, checkPrice, limitsOf, shopBuySchema } from './rules.ts'

/** One checker product in the agent's shop settings. */
export interface CheckerPriceLine extends ShopPriceFields {
  productId: number
  name: string
  inStock: boolean
}

export type ShopCheckersService = ReturnType<typeof createShopCheckersService>

/**
 * Result-checker cards in agents' shops (ADR 0040 '## In agent shops'): the shop's price per product,
 * the visitor's purchase at that price through the vouchers' payment flow, and the agent's margin on
 * the cards settlement allocated, credited once in the settlement's transaction.
 */
export function createShopCheckersService(deps: {
  sequelize: Sequelize
  audit: AuditService
  shops: ShopsService
  vouchers: VouchersService
  earnings: EarningsService
}) {
  const { sequelize, audit, shops, vouchers } = deps
  const queries = createShopCheckerQueries(sequelize)

  async function savedPrices(shopId: number | null): Promise<Map<number, number>> {
    if (!shopId) return new Map()
    return queries.savedPrices(shopId)
  }

  /** The price a card sells at now in this shop: what the agent saved, held inside the product's limits of today. */
  const priceNow = (p: ProductRow, saved: number) => {
    const { floor, ceiling } = limitsOf(p)
    return sellingPrice(saved, floor, ceiling)
  }

  /** Every product on sale with the shop's limits and (when listed) its price. */
  async function lines(shopId: number | null): Promise<CheckerPriceLine[]> {
    const [{ rows, counts }, saved] = await Promise.all([vouchers.products.activeRows(), savedPrices(shopId)])
    return rows.map((p) => {
      const { floor, ceiling } = limitsOf(p)
      return { productId: p.id, name: p.name, ...priceFields(saved.get(p.id), floor, ceiling), inStock: (counts.get(p.id)?.available ?? 0) > 0 }
    })
  }

  /** The signed-in agent's shop, open: only such a shop may set checker prices. */
  async function openShopOf(ctx: Ctx) {
    const agent = requireActiveAgent(ctx, 'Shops')
    const shop = await shops.ofAgent(agent.id)
    if (!shop) throw badRequest('Create your shop first')
    if (!shops.present(shop).open) throw forbidden('Your shop is closed at the moment, so it cannot sell checkers')
    return { agent, shop }
  }

  return {
    /** The signed-in agent's checker price lines (every product on sale; listed ones with their price). */
    async mine(ctx: Ctx): Promise<CheckerPriceLine[]> {
      const agent = requireActiveAgent(ctx, 'Shops')
      const shop = await shops.ofAgent(agent.id)
      return lines(shop?.id ?? null)
    },

    /**
     * Sets (or with price null, stops) the shop's price per checker product: at least the agent price,
     * at most the product's shop ceiling. All or nothing; the shop's cached page is dropped at once here
     * and on other instances by the table's NOTIFY.
     */
    async setPrices(body: unknown, ctx: Ctx): Promise<CheckerPriceLine[]> {
      const { shop } = await openShopOf(ctx)
      const { value, error } = checkerPricesSchema.validate(body ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const wanted = value.prices as { productId: number; price: number | null }[]
      const products = new Map<number, ProductRow>()
      for (const w of wanted) {
        const p = await vouchers.products.load(w.productId).catch(() => null)
        if (!p || (!p.active && w.price !== null)) throw badRequest('This checker is not on sale')
        if (w.price !== null) checkPrice(p, toPesewas(w.price))
        products.set(p.id, p)
      }
      await sequelize.transaction(async (t) => {
        for (const w of wanted) {
          if (w.price === null) await queries.deletePrice(shop.id, w.productId, t)
          else await queries.upsertPrice(shop.id, w.productId, toPesewas(w.price), t)
        }
        await audit.record(
          {
            action: 'SHOP_CHECKER_PRICES_SET',
            resource: 'SHOP',
            resourceId: shop.id,
            details: { prices: wanted.map((w) => ({ product: products.get(w.productId)?.name, price: w.price })) }
          },
          { ...ctx, transaction: t }
        )
      })
      // The trigger's NOTIFY comes back a moment after this answer: the agent opening the shop next must see the new price.
      shops.changed(shop.id)
      return lines(shop.id)
    },

    /** What the shop page offers: the listed products on sale, at the shop's price, with whether cards are in stock. */
    async publicList(shopId: number): Promise<PublicProductView[]> {
      const [{ rows, counts }, saved] = await Promise.all([vouchers.products.activeRows(), savedPrices(shopId)])
      return rows.filter((p) => saved.has(p.id)).map((p) => publicView(p, priceNow(p, saved.get(p.id)!), counts))
    },

    /**
     * A visitor buys cards in the shop, by mobile money or card, at the price per card the buyer confirmed
     * (409 with the current price when it changed). The payment records the shop, its agent and the
     * agent's own price, so the margin is fixed now and paid on the cards settlement allocates.
     */
    async buy(rawSlug: unknown, body: unknown, ctx: Ctx): Promise<PaymentView> {
      const found = await shops.resolve(rawSlug)
      if (!found || 'redirect' in found) throw notFound('Shop not found')
      const shop = found.shop
      if (!shops.present(shop).open) throw new AppError(410, SHOP_CLOSED)
      const { value, error } = shopBuySchema.validate(body ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const product = await vouchers.products.load(value.productId).catch(() => null)
      const saved = product && product.active ? (await savedPrices(shop.id)).get(product.id) : undefined
      if (!product || saved === undefined) throw badRequest('This checker is not sold in this shop')
      const now = priceNow(product, saved)
      if (toPesewas(value.price) !== now) throw new AppError(409, PRICE_CHANGED, { price: toGhs(now) })
      const raw = (body ?? {}) as Record<string, unknown>
      const payFrom = raw.payFrom === 'card' ? 'card' : 'momo'
      return vouchers.buy({ ...raw, payFrom } as Parameters<VouchersService['buy']>[0], ctx, {
        shopId: shop.id,
        agentId: shop.agentId,
        agentUnitPesewas: limitsOf(product).floor,
        unitPesewas: now
      })
    },

    /**
     * Settlement allocated cards of a shop's purchase: the sale and the agent's margin on exactly those
     * cards, once (the sale's primary key and the ledger's unique payment and type), in its transaction.
     */
    async creditMargin(payment: PaymentRow, allocated: number, t: Transaction) {
      const want = payment.details?.vouchers as Wanted | undefined
      const sale = want?.shop
      if (!want || !sale || allocated <= 0) return null
      const cards = Math.min(allocated, want.quantity)
      const margin = (want.unitPesewas - sale.agentUnitPesewas) * cards
      const recorded = await queries.recordSale(
        {
          transactionId: payment.transaction_id,
          shopId: sale.shopId,
          agentId: sale.agentId,
          productId: want.productId,
          cards,
          pricePesewas: want.unitPesewas,
          agentPricePesewas: sale.agentUnitPesewas,
          amountPesewas: want.unitPesewas * cards,
          marginPesewas: margin
        },
        t
      )
      if (!recorded || margin <= 0) return null
      const { entry, balancePesewas } = await deps.earnings.post(
        {
          type: 'MARGIN',
          agentId: sale.agentId,
          paymentTransactionId: payment.transaction_id,
          amountPesewas: margin,
          reason: `Shop margin on ${cards} checker card${cards === 1 ? '' : 's'} (payment ${payment.transaction_id})`
        },
        t
      )
      if (entry)
        await audit.record(
          {
            action: 'SHOP_MARGIN_CREDITED',
            resource: 'PAYMENT',
            resourceId: payment.transaction_id,
            details: { shopId: sale.shopId, agentId: sale.agentId, cards, margin: toGhs(margin), earnings: toGhs(balancePesewas) }
          },
          { transaction: t }
        )
      return entry
    },

    /** The purchase's money went back in full or was taken back: the margin credited on it (if any) is taken back, once. */
    async reverseMargin(transactionId: string, why: 'refund' | 'reversal', ctx: Ctx & { transaction: Transaction }) {
      const t = ctx.transaction
      const credited = await queries.creditedMargin(transactionId, t)
      if (!credited) return null
      const amount = credited.amountPesewas
      const { entry, balancePesewas } = await deps.earnings.post(
        {
          type: 'MARGIN_REVERSAL',
          agentId: credited.agentId,
          paymentTransactionId: transactionId,
          amountPesewas: -amount,
          reason: `Shop margin taken back: checker payment ${transactionId} ${why === 'refund' ? 'refunded' : 'reversed'}`
        },
        t
      )
      if (entry)
        await audit.record(
          {
            action: 'SHOP_MARGIN_REVERSED',
            resource: 'PAYMENT',
            resourceId: transactionId,
            severity: 'HIGH',
            details: { agentId: credited.agentId, margin: toGhs(amount), why, earnings: toGhs(balancePesewas) }
          },
          ctx
        )
      return entry
    }
  }
}
