import { AppError, badRequest, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import { PRICE_CHANGED, type OrdersService, type PlaceOptions, type PlaceOrderInput, type ShopQuote } from '../orders/index.ts'
import type { PackagesService } from '../packages/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { ShopPrices } from './prices.ts'
import type { ShopQueries } from './queries.ts'
import { orderBodySchema } from './rules.ts'
import type { Storefront } from './storefront.ts'
import { presentShop } from './view.ts'

export const SHOP_CLOSED = 'This shop is closed at the moment.'

const priceChanged = (pricePesewas: number) => new AppError(409, PRICE_CHANGED, { price: toGhs(pricePesewas) })

/**
 * Orders placed through a shop. Their body is checked here, with the order's own check in the orders
 * service, like every channel's order (the web's form and the WhatsApp chat both come here): the
 * shop is found and open first, so an unknown or closed shop answers 404 or 410 whatever the body.
 */
export function createShopSales(deps: {
  queries: ShopQueries
  packages: PackagesService
  settings: SettingsService
  prices: ShopPrices
  storefront: Pick<Storefront, 'resolve'>
  orders: OrdersService
}) {
  const { queries, packages, settings, prices, orders } = deps

  /**
   * A visitor's purchase through the shop, checked: the body carries the price the buyer confirmed, and
   * the order is placed at exactly that price or refused with 409 and the current price. The price is
   * checked again inside the order's transaction, under a share lock on the price row that an agent's
   * price change must wait for, so no buyer is ever charged a price they did not confirm.
   */
  async function shopOrder(rawSlug: unknown, body: unknown): Promise<{ input: PlaceOrderInput; shop: ShopQuote }> {
    const found = await deps.storefront.resolve(rawSlug)
    if (!found || 'redirect' in found) throw notFound('Shop not found')
    const shop = found.shop
    if (!presentShop(shop).open) throw new AppError(410, SHOP_CLOSED)
    const { value, error } = orderBodySchema.validate(body ?? {})
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const input = (body ?? {}) as PlaceOrderInput & Record<string, unknown>
    const pkg = await packages.getActive(Number(input.packageId))
    if (!pkg) throw badRequest('Please select a package')
    const s = await settings.getFresh()
    const now = await prices.currentPrice(shop, pkg, s)
    if (!now) throw badRequest('This bundle is not sold in this shop')
    const confirmed = toPesewas(value.price)
    if (now.price !== confirmed) throw priceChanged(now.price)
    const { payFrom: _ignored, ...rest } = input
    const quote: ShopQuote = {
      shopId: shop.id,
      agentId: shop.agentId,
      pricePesewas: confirmed,
      agentPricePesewas: now.floor,
      parent: now.parent,
      recheck: async (t) => {
        if (!(await queries.isOpenHeld(shop.id, t))) throw new AppError(410, SHOP_CLOSED)
        const again = await prices.currentPrice(shop, pkg, s, t, true)
        if (!again) throw badRequest('This bundle is not sold in this shop')
        if (again.price !== confirmed || again.floor !== now.floor || again.parent?.pricePesewas !== now.parent?.pricePesewas) throw priceChanged(again.price)
      }
    }
    return { input: { ...rest, packageId: pkg.id }, shop: quote }
  }

  return {
    /** A visitor buys through the shop at the price they confirmed (checked as `shopOrder` says) and pays at once. */
    async placeOrder(rawSlug: unknown, body: unknown, ctx: Ctx = {}, opts: Pick<PlaceOptions, 'andThen'> = {}) {
      const { input, shop } = await shopOrder(rawSlug, body)
      return orders.placeOrder({ ...input, payFrom: 'gateway' }, ctx, { ...opts, shop })
    },

    /** The same sale at the confirmed price, left unpaid: paid later through a payment link (WhatsApp). */
    async createUnpaidOrder(rawSlug: unknown, body: unknown, ctx: Ctx = {}, opts: Pick<PlaceOptions, 'andThen'> = {}) {
      const { input, shop } = await shopOrder(rawSlug, body)
      return orders.createOrder(input, ctx, { ...opts, shop })
    }
  }
}
