import type { Transaction } from 'sequelize'
import type { PackageRow, PackagesService } from '../packages/index.ts'
import type { PricingService, Quote } from '../pricing/index.ts'
import type { Settings } from '../settings/index.ts'
import type { ShopQueries } from './queries.ts'
import { ceilingOf, priceFields, sellingPrice } from './rules.ts'
import type { PriceLine } from './view.ts'

/** A shop's price per bundle: the agent's editor lines, and what a listed bundle sells at now. */
export function createShopPrices(deps: { queries: ShopQueries; packages: PackagesService; pricing: PricingService }) {
  const { queries, packages, pricing } = deps
  return {
    /** Every active package with the shop's floor, ceiling and (when listed) price. */
    async priceLines(shopId: number | null, agentId: number, s: Settings): Promise<PriceLine[]> {
      const saved = shopId ? await queries.savedPrices(shopId) : new Map<number, number>()
      const list = await packages.listActive()
      const floors = await pricing.agentPrices(agentId, list)
      return list.map((p) => {
        const floor = floors.get(p.id)!.pricePesewas
        return {
          packageId: p.id,
          network: p.network,
          name: packages.present(p).name,
          sizeMB: p.sizeMb,
          ...priceFields(saved.get(p.id), floor, ceilingOf(floor, s))
        }
      })
    },

    /** The price a listed package sells at now in this shop, with its floor; null when the shop does not sell it. */
    async currentPrice(shop: { id: number; agentId: number }, pkg: PackageRow, s: Settings, t?: Transaction, lock = false) {
      const saved = await queries.savedPrice(shop.id, pkg.id, t, lock)
      if (saved === null) return null
      // The floor is what the shop's agent itself pays (its tier's price, or its parent's price for it: ADR 0041).
      const cost: Quote = (await pricing.agentPrices(shop.agentId, [pkg], t)).get(pkg.id)!
      const floor = cost.pricePesewas
      return { price: sellingPrice(saved, floor, ceilingOf(floor, s)), floor, parent: cost.parent }
    }
  }
}

export type ShopPrices = ReturnType<typeof createShopPrices>
