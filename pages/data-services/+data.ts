import type { PageContextServer } from 'vike/types'
import { toGhs } from '../../server/lib/money.ts'
import { openingNetwork } from './networks.ts'

export interface StorePackage {
  id: number
  network: string
  name: string
  sizeMB: number
  priceUser: number | null
  priceAgent: number | null
}

export interface BuyData {
  packages: StorePackage[]
  providerLabel: string
  /** ?tab=orders opens My Orders (the home page's My Orders card links there). */
  tab: 'buy' | 'orders'
  /** The network tab the form opens on (`openingNetwork`). */
  network: string
}

// Active packages of every network, rendered on the server; switching network needs no request.
export async function data(pageContext: PageContextServer): Promise<BuyData> {
  const services = pageContext.services
  const tab = pageContext.urlParsed.search.tab === 'orders' ? 'orders' : 'buy'
  if (!services) return { packages: [], providerLabel: 'Paystack', tab, network: openingNetwork([], null) }
  const rows = await services.packages.listActive()
  // A signed-in agent sees the price the one price rule gives it (ADR 0041); visitors the public price.
  const quotes = pageContext.user?.role === 'AGENT' ? await services.pricing.quotes(pageContext.user, rows) : null
  const packages = rows.map((p) => {
    const v = services.packages.present(p)
    return {
      id: v.id,
      network: v.network,
      name: v.name,
      sizeMB: v.sizeMB,
      priceUser: v.priceUser,
      priceAgent: quotes ? toGhs(quotes.get(p.id)!.pricePesewas) : null
    }
  })
  return {
    packages,
    providerLabel: services.payments.providerName === 'paystack' ? 'Paystack' : services.payments.providerLabel,
    tab,
    network: openingNetwork(packages, pageContext.urlParsed.search.network)
  }
}
