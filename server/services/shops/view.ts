import { formatCedis, toGhs } from '../../lib/money.ts'
import type { Shop, ShopFigures } from './queries.ts'
import type { ShopPriceFields } from './rules.ts'

/** What the API and pages show of a shop. */
export interface ShopView {
  id: number
  slug: string
  name: string
  description: string
  whatsapp: string
  accent: string
  status: Shop['status']
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

export const presentShop = (s: Shop): ShopView => ({
  id: s.id,
  slug: s.slug,
  name: s.name,
  description: s.description,
  whatsapp: s.whatsapp,
  accent: s.accent,
  status: s.status,
  open: s.status === 'ACTIVE' && s.agentActive !== false,
  whatsappOrders: s.whatsappOrders
})

/** A shop's figures as the agent's page and the admin's list show them (GHS). */
export const presentFigures = (f: ShopFigures | undefined) =>
  f
    ? { salesCount: f.salesCount, salesAmount: toGhs(f.salesPesewas)!, marginEarned: toGhs(f.marginPesewas)! }
    : { salesCount: 0, salesAmount: 0, marginEarned: 0 }

/** A few of the shop's prices as text (link previews: og:description and the card). */
export const priceTexts = (list: ShopPackage[], n = 3) =>
  [...list]
    .sort((a, b) => a.price - b.price)
    .slice(0, n)
    .map((p) => `${p.name} ${formatCedis(p.price)}`)
