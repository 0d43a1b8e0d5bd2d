import { AppError, badRequest } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { PackageRow, PackagesService } from '../packages/index.ts'
import type { Quote } from '../pricing/index.ts'
import type { PlaceOrderInput, ShopQuote } from './input.ts'
import type { NewOrder } from './queries.ts'

export const PRICE_CHANGED = 'The price of this bundle has changed. Please check the new price and confirm again.'

/** What of the placing's options a new order's columns take. */
export interface OrderColumnOptions {
  /** The number the payment prompt goes to (mobile money). */
  payerPhone?: string | null
  shop?: ShopQuote
  /** Written marked simulated: its payment follows at once from the payment simulator. */
  simulated?: boolean
}

/**
 * The PENDING order's columns at the quoted price and its ORDER_CREATED entry (`audit.ofWritten`, written
 * by the order's own statement, its id the order's). Throws when the price may not be sold at.
 */
export function orderColumns(
  deps: { audit: AuditService; packages: PackagesService },
  pkg: PackageRow,
  input: PlaceOrderInput,
  tid: string,
  quote: Quote,
  ctx: Ctx,
  opts: OrderColumnOptions
) {
  const { audit, packages } = deps
  const { shop } = opts
  const actor = ctx.user ?? null
  const amountPesewas = quote.pricePesewas
  // A package priced 0 (made before prices had to be positive) would be "paid" at once with nothing: never sold.
  if (!(amountPesewas >= 1)) throw badRequest('This package is not available for purchase')
  if (!shop && input.price !== undefined && input.price !== null && toPesewas(input.price) !== amountPesewas) {
    throw new AppError(409, PRICE_CHANGED, { price: toGhs(amountPesewas) })
  }
  const parent = quote.parent
  const channel = input.channel ?? 'web'
  const entry = audit.ofWritten(
    {
      action: 'ORDER_CREATED',
      resource: 'ORDER',
      details: {
        transactionId: tid,
        network: pkg.network,
        dataSizeMB: pkg.sizeMb,
        amount: toGhs(amountPesewas),
        recipientNumber: input.recipientNumber,
        channel,
        ...(shop ? { shopId: shop.shopId, agentPrice: toGhs(shop.agentPricePesewas), margin: toGhs(shop.pricePesewas - shop.agentPricePesewas) } : {}),
        ...(parent ? { parentAgentId: parent.agentId, parentMargin: toGhs(parent.marginPesewas) } : {})
      }
    },
    ctx
  )
  const order: NewOrder = {
    userId: actor?.id ?? null,
    agentId: !shop && actor?.role === 'AGENT' ? (actor.agent?.id ?? null) : null,
    shopId: shop?.shopId ?? null,
    shopAgentId: shop?.agentId ?? null,
    shopPricePesewas: shop?.pricePesewas ?? null,
    shopAgentPricePesewas: shop?.agentPricePesewas ?? null,
    shopMarginPesewas: shop ? shop.pricePesewas - shop.agentPricePesewas : null,
    packageId: pkg.id,
    packageName: packages.present(pkg).name,
    recipientNumber: input.recipientNumber,
    network: pkg.network,
    dataSizeMb: pkg.sizeMb,
    amountPesewas,
    paymentTransactionId: tid,
    paymentPhoneNumber: opts.payerPhone ?? null,
    channel,
    simulated: !!opts.simulated,
    parentAgentId: parent?.agentId ?? null,
    parentPricePesewas: parent?.pricePesewas ?? null,
    parentMarginPesewas: parent?.marginPesewas ?? null
  }
  return { order, entry }
}
