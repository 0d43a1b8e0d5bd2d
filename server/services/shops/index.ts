import type { Sequelize } from 'sequelize'
import type { AuditService } from '../audit/index.ts'
import type { EarningsService } from '../earnings/index.ts'
import { PRICE_CHANGED, type OrdersService } from '../orders/index.ts'
import type { PackagesService } from '../packages/index.ts'
import type { PricingService } from '../pricing/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { createShopAdmin } from './admin.ts'
import { createShopMargins } from './margins.ts'
import { createShopOwner } from './owner.ts'
import { createShopPrices } from './prices.ts'
import { qrSvg } from './qr.ts'
import { createShopQueries } from './queries.ts'
import { createShopSales } from './sales.ts'
import { createStorefront } from './storefront.ts'
import { presentShop, priceTexts } from './view.ts'

export { PRICE_CHANGED }
export { SHOP_CLOSED } from './sales.ts'
export type { ShopInput } from './owner.ts'
export type { PriceLine, ShopView } from './view.ts'

export type ShopsService = ReturnType<typeof createShopsService>

/**
 * Agents' shops (ADR 0020 '## Shops'): the shop, its prices, its sales at the confirmed price, its
 * margins. The agent's own shop is owner.ts, the visitors' storefront.ts, orders placed through a
 * shop sales.ts, margins margins.ts, the back office admin.ts; every statement is in queries.ts.
 */
export function createShopsService(deps: {
  sequelize: Sequelize
  audit: AuditService
  settings: SettingsService
  packages: PackagesService
  pricing: PricingService
  orders: OrdersService
  earnings: EarningsService
}) {
  const { sequelize, audit, settings, packages, pricing } = deps
  const queries = createShopQueries(sequelize)
  const prices = createShopPrices({ queries, packages, pricing })
  const storefront = createStorefront({ queries, settings, prices })

  const listeners = new Set<(shopId: number | null) => void>()
  /** `null`: any shop may have changed. */
  const changed = (shopId: number | null) => {
    for (const fn of listeners) fn(shopId)
  }

  return {
    present: presentShop,
    /** Called when a shop's page may show something else (its row, prices or agent; `null` for any shop): here at once, elsewhere by NOTIFY. */
    onChange(fn: (shopId: number | null) => void): () => void {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
    changed,
    ofAgent: (agentId: number) => queries.byAgent(agentId),
    priceLines: prices.priceLines,
    priceTexts,
    qrSvg,
    ...storefront,
    ...createShopOwner({ sequelize, queries, audit, settings, packages, pricing, prices, changed }),
    ...createShopSales({ queries, packages, settings, prices, storefront, orders: deps.orders }),
    ...createShopMargins({ queries, audit, earnings: deps.earnings }),
    ...createShopAdmin({ sequelize, queries, audit, changed })
  }
}
