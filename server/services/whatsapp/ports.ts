import crypto from 'node:crypto'
import type { Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import type { Logger } from '../../lib/logger.ts'
import type { LimitsService } from '../limits/index.ts'
import type { OrdersService } from '../orders/index.ts'
import type { PackagesService } from '../packages/index.ts'
import { newTransactionId } from '../payments/index.ts'
import type { PricingService } from '../pricing/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { ShopsService } from '../shops/index.ts'
import type { ChatOrderInput, ChatPorts } from './conversation.ts'
import type { WhatsappQueries } from './queries.ts'

/** How long a payment link pays its order. */
export const PAY_LINK_MINUTES = 30
export const payTokenHash = (token: string) => crypto.createHash('sha256').update(token).digest('hex')

export type PortDeps = {
  queries: WhatsappQueries
  log: Logger
  settings: SettingsService
  packages: PackagesService
  pricing: Pick<PricingService, 'quotes'>
  orders: OrdersService
  limits: LimitsService
  shops: Pick<ShopsService, 'forChat' | 'publicView' | 'placeOrder' | 'createUnpaidOrder'>
  /** Where pay links start (PUBLIC_URL, else this instance's own address). */
  origin: string
}

/** What one turn asks to change on the chat's row: written with the turn's answers, in their transaction. */
export interface TurnEffects {
  handOff: boolean
}

/**
 * The services a conversation reaches, for one chat's turn. No port holds a transaction while it
 * waits for another connection: each reads on its own, and placing an order is the order service's
 * one transaction, so a burst of chats never needs two pool connections per turn.
 */
export function createChatPorts(deps: PortDeps) {
  const { queries, log, settings, packages, orders, limits, shops } = deps
  // The chat's order under this reference, when a run of the same turn placed it already.
  const placedBefore = queries.placedBefore

  /** The order the same turn asked for already (a run again), or what placing it answers; a 409 of a raced run finds the other's. */
  async function once<T extends { transactionId: string; amountPesewas: number }>(waId: string, reference: string, make: () => Promise<T>) {
    const before = await placedBefore(waId, reference)
    if (before) return before
    try {
      return await make()
    } catch (err) {
      const raced = err instanceof AppError && err.status === 409 ? await placedBefore(waId, reference) : null
      if (raced) return raced
      throw err
    }
  }

  /** A bound shop that no longer takes WhatsApp orders refuses, in the words of the settings. */
  async function shopStillTakes(slug: string) {
    if (await shops.forChat(slug)) return
    const s = await settings.get()
    throw new AppError(410, s.whatsappShopUnavailable.replace(/\{siteName\}/g, s.siteName))
  }

  /** A shop order's body: the price the customer confirmed in the chat. */
  const shopBody = (input: ChatOrderInput) => ({
    packageId: input.packageId,
    price: toGhs(input.pricePesewas),
    recipientNumber: input.recipient,
    transactionId: input.reference,
    channel: 'whatsapp' as const
  })

  return function portsFor(waId: string, effects: TurnEffects): ChatPorts {
    const link = (orderId: number, tx: Transaction) => queries.linkOrder(orderId, waId, tx)
    return {
      settings: () => settings.get(),
      newReference: newTransactionId,
      shop: (slug) => shops.forChat(slug),
      async bundles(network, shop) {
        if (shop) {
          const view = shop && (await shops.publicView(shop))
          if (!view || 'redirect' in view) return []
          return view.packages
            .filter((p) => p.network === network)
            .map((p) => ({ id: p.id, network: p.network, sizeMb: p.sizeMB, pricePesewas: toPesewas(p.price) }))
        }
        const list = await packages.listActive({ network })
        // The chat's customer is a visitor: the one price rule's answer for nobody signed in.
        const quotes = await deps.pricing.quotes(null, list)
        return list.map((p) => ({ id: p.id, network: p.network, sizeMb: p.sizeMb, pricePesewas: quotes.get(p.id)!.pricePesewas }))
      },
      place: (input) =>
        once(waId, input.reference, async () => {
          // Each prompt rings a phone: the web's per-number limit.
          await limits.take({ orderPerPhone: input.payer })
          const ctx = { user: null, log }
          const momo = { payerPhone: input.payer, payerNetwork: input.payerNetwork, voucher: input.voucher }
          if (input.shop) await shopStillTakes(input.shop)
          const placed = input.shop
            ? await shops.placeOrder(input.shop, { ...shopBody(input), ...momo }, ctx, { andThen: link })
            : await orders.placeOrder(
                { packageId: input.packageId, recipientNumber: input.recipient, transactionId: input.reference, channel: 'whatsapp', ...momo },
                ctx,
                { andThen: link }
              )
          return { transactionId: String(placed.order.paymentTransactionId ?? ''), amountPesewas: placed.amountPesewas }
        }),
      async payLink(input) {
        // A new token each time it is asked: only its hash is stored, so a run again cannot show the old one.
        const token = crypto.randomBytes(24).toString('base64url')
        const made = await once(waId, input.reference, async () => {
          const ctx = { user: null, log }
          if (input.shop) await shopStillTakes(input.shop)
          const order = input.shop
            ? await shops.createUnpaidOrder(input.shop, shopBody(input), ctx, { andThen: link })
            : await orders.createOrder(
                { packageId: input.packageId, recipientNumber: input.recipient, transactionId: input.reference, channel: 'whatsapp' },
                ctx,
                { andThen: link }
              )
          return { transactionId: String(order.paymentTransactionId ?? input.reference), amountPesewas: toPesewas(order.amount ?? 0) }
        })
        await queries.setPayToken({ waId, transactionId: made.transactionId, hash: payTokenHash(token), minutes: PAY_LINK_MINUTES })
        return { ...made, link: `${deps.origin}/pay/${token}`, minutes: PAY_LINK_MINUTES }
      },
      recentOrders: (limit) => queries.recentOrders(waId, limit),
      async handOff() {
        effects.handOff = true
      }
    }
  }
}

export type ChatPortsFor = ReturnType<typeof createChatPorts>
