import type { Actor, Ctx } from '../server/services/context.ts'
import type { Services } from '../server/services/index.ts'
import type { PackageRow } from '../server/services/packages/index.ts'

export interface MenuPackage {
  id: number
  network: string
  sizeMb: number
  pricePesewas: number
}

export interface PlacedOrder {
  orderId: number
  transactionId: string
  amountPesewas: number
  paymentStatus: string
  message: string | null
}

/** What the menu needs from the domain layer: the same services the web uses. */
export interface MenuPorts {
  listPackages(network: string, actor: Actor | null, fresh?: boolean): Promise<MenuPackage[]>
  placeOrder(
    input: { packageId: number; recipientNumber: string; payerPhone: string; payerNetwork: string | null; voucher?: string | null; payFrom?: 'wallet' },
    ctx: Ctx
  ): Promise<PlacedOrder>
  /** Asks the gateway about an open payment (at the gateway's pace) and settles it. */
  refreshStatus(transactionId: string, ctx: Ctx): Promise<void>
}

/**
 * The bundle list is read on most hops; a few seconds' cache spares the database under load. The
 * confirm screen reads it fresh, and the order's price is always the server's at placeOrder.
 */
export const PACKAGE_CACHE_MS = 5000

export function menuPorts(services: Services, opts: { cacheMs?: number } = {}): MenuPorts {
  const ttl = opts.cacheMs ?? PACKAGE_CACHE_MS
  const cache = new Map<string, { at: number; list: Promise<PackageRow[]> }>()
  function active(network: string, fresh: boolean) {
    const hit = cache.get(network)
    if (!fresh && hit && Date.now() - hit.at < ttl) return hit.list
    const list = services.packages.listActive({ network })
    cache.set(network, { at: Date.now(), list })
    list.catch(() => cache.delete(network))
    return list
  }
  return {
    async listPackages(network, actor, fresh = false) {
      const list = await active(network, fresh)
      const quotes = await services.pricing.quotes(actor, list)
      return list.map((p) => ({ id: p.id, network: p.network, sizeMb: p.sizeMb, pricePesewas: quotes.get(p.id)!.pricePesewas }))
    },
    async placeOrder(input, ctx) {
      const { order, payment, amountPesewas } = await services.orders.placeOrder(
        {
          packageId: input.packageId,
          recipientNumber: input.recipientNumber,
          payerPhone: input.payerPhone,
          payerNetwork: input.payerNetwork,
          voucher: input.voucher ?? null,
          channel: 'ussd',
          payFrom: input.payFrom
        },
        ctx
      )
      return {
        orderId: order.id,
        transactionId: payment.transactionId ?? order.paymentTransactionId ?? '',
        amountPesewas,
        paymentStatus: String(payment.paymentStatus ?? order.paymentStatus).toUpperCase(),
        message: payment.message ?? null
      }
    },
    async refreshStatus(transactionId) {
      // The menu has already scoped the order to the dialling agent; this only asks the gateway.
      await services.payments.refresh(transactionId)
    }
  }
}
