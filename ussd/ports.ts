import type { Actor, Ctx } from '../server/services/context.ts'
import type { Services } from '../server/services/index.ts'
import { AppError } from '../server/lib/errors.ts'

export interface MenuPackage {
  id: number
  network: string
  sizeMb: number
  pricePesewas: number
}

export interface PlacedOrder {
  transactionId: string
  amountPesewas: number
  paymentStatus: string
  message: string | null
}

/** What the menu needs from the domain layer: the same services the web uses. */
export interface MenuPorts {
  listPackages(network: string, actor: Actor): Promise<MenuPackage[]>
  placeOrder(input: { packageId: number; recipientNumber: string; payerPhone: string; payerNetwork: string | null }, ctx: Ctx): Promise<PlacedOrder>
  /** Asks the gateway about a pending payment (rate-limited by the payments service); optional. */
  refreshStatus(transactionId: string, ctx: Ctx): Promise<void>
}

const plain = (x: any) => (x && typeof x.get === 'function' ? x.get({ plain: true }) : x)

export function menuPorts(services: Services): MenuPorts {
  // Typed loosely: the storefront issue owns these services and their exact shapes.
  const s = services as any
  return {
    async listPackages(network, actor) {
      const list: any[] = s.packages?.listActive
        ? await s.packages.listActive({ network })
        : (await services.deps.models.Package.findAll({ where: { network, active: true }, order: [['sizeMb', 'ASC'], ['id', 'ASC']] })).map(plain)
      const out: MenuPackage[] = []
      for (const raw of list.map(plain)) {
        if (raw.active === false || raw.network !== network) continue
        const price = s.packages?.priceFor ? await s.packages.priceFor(raw, actor) : raw.priceAgentPesewas ?? raw.priceUserPesewas
        out.push({ id: raw.id, network: raw.network, sizeMb: raw.sizeMb, pricePesewas: Number(price) })
      }
      return out.sort((a, b) => a.sizeMb - b.sizeMb || a.id - b.id)
    },
    async placeOrder(input, ctx) {
      if (!s.orders?.placeOrder) throw new AppError(503, 'Buying by USSD is not available yet. Please use the website.')
      const { order, payment } = await s.orders.placeOrder(
        { packageId: input.packageId, recipientNumber: input.recipientNumber, payerPhone: input.payerPhone, payerNetwork: input.payerNetwork ?? undefined, channel: 'ussd' },
        ctx,
      )
      const o = plain(order)
      const p = plain(payment) ?? {}
      return {
        transactionId: String(p.transactionId ?? o.paymentTransactionId ?? ''),
        amountPesewas: Number(o.amountPesewas ?? p.amountPesewas ?? 0),
        paymentStatus: String(p.paymentStatus ?? p.status ?? o.paymentStatus ?? 'PENDING').toUpperCase(),
        message: p.message ?? null,
      }
    },
    async refreshStatus(transactionId, ctx) {
      if (s.payments?.status) await s.payments.status(transactionId, ctx)
    },
  }
}
