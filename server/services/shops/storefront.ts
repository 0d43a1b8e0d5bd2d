import type { SettingsService } from '../settings/index.ts'
import { shopCardPng } from './og-card.ts'
import type { ShopPrices } from './prices.ts'
import type { Shop, ShopQueries } from './queries.ts'
import { presentShop, priceTexts, type ShopPackage, type ShopView } from './view.ts'

/** What visitors see of a shop: its page by slug (old slugs redirect), its link-preview card, whether a chat may order there. */
export function createStorefront(deps: { queries: ShopQueries; settings: SettingsService; prices: ShopPrices }) {
  const { queries, settings, prices } = deps

  /** Open shop by current slug, or where an old slug now points. */
  async function resolve(rawSlug: unknown): Promise<{ shop: Shop } | { redirect: string } | null> {
    const slug = String(rawSlug ?? '')
      .trim()
      .toLowerCase()
    if (!slug || slug.length > 30) return null
    const shop = await queries.bySlug(slug)
    if (shop) return { shop }
    const now = await queries.slugNowOf(slug)
    return now ? { redirect: now } : null
  }

  /** What /shop/<slug> shows: the shop and its bundles, a redirect for an old slug, or null. */
  async function publicView(rawSlug: unknown): Promise<{ redirect: string } | { shop: ShopView; packages: ShopPackage[] } | null> {
    const found = await resolve(rawSlug)
    if (!found || 'redirect' in found) return found
    const shop = presentShop(found.shop)
    if (!shop.open) return { shop, packages: [] }
    const lines = await prices.priceLines(shop.id, found.shop.agentId, await settings.get())
    return {
      shop,
      packages: lines
        .filter((l) => l.listed && l.price !== null)
        .map((l) => ({ id: l.packageId, network: l.network, name: l.name, sizeMB: l.sizeMB, price: l.price! }))
    }
  }

  const cards = new Map<string, Buffer>()

  return {
    resolve,
    publicView,

    /** The link-preview card (PNG) of a shop, or null for an unknown slug. Kept in memory per shop state. */
    async ogImage(rawSlug: unknown): Promise<Buffer | null> {
      const view = await publicView(rawSlug)
      if (!view || 'redirect' in view) return null
      const input = {
        name: view.shop.name,
        accent: view.shop.accent,
        siteName: (await settings.get()).siteName,
        lines: priceTexts(view.packages),
        closed: !view.shop.open
      }
      const key = JSON.stringify(input)
      let png = cards.get(key)
      if (!png) {
        png = shopCardPng(input)
        if (cards.size >= 200) cards.delete(cards.keys().next().value!)
        cards.set(key, png)
      }
      return png
    },

    /** The shop a WhatsApp chat names, when it takes orders there now (open, agent active, switched on); else null. */
    async forChat(rawSlug: unknown): Promise<{ slug: string; name: string } | null> {
      let found = await resolve(rawSlug)
      // An old link still names the shop.
      if (found && 'redirect' in found) found = await resolve(found.redirect)
      if (!found || 'redirect' in found) return null
      const view = presentShop(found.shop)
      return view.open && view.whatsappOrders ? { slug: view.slug, name: view.name } : null
    }
  }
}

export type Storefront = ReturnType<typeof createStorefront>
