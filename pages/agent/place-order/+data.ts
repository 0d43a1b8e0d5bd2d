import type { PageContextServer } from 'vike/types'
import { toGhs } from '../../../server/lib/money.ts'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'

export interface OrderPackage {
  id: number
  network: string
  name: string
  sizeMB: number
  price: number
  regular: number
}
export interface PlaceOrderData extends AgentBase {
  packages: OrderPackage[] | null
  walletBalance: number | null
}

export async function data(pageContext: PageContextServer): Promise<PlaceOrderData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  if (!services) return { ...base, packages: null, walletBalance: null }
  const walletBalance = user?.agent && base.agent ? toGhs(await services.wallet.balancePesewas(user.agent.id)) : null
  try {
    const rows = await services.packages.listActive()
    const quotes = await services.pricing.quotes(user, rows)
    return {
      ...base,
      walletBalance,
      // The price this agent pays, computed by the server exactly as the order will be.
      packages: rows.map((p) => ({
        id: p.id,
        network: p.network,
        name: services.packages.present(p).name,
        sizeMB: p.sizeMb,
        price: toGhs(quotes.get(p.id)!.pricePesewas) ?? 0,
        regular: toGhs(p.priceUserPesewas) ?? 0
      }))
    }
  } catch (err) {
    services.deps.log.warn({ err: { message: (err as Error).message } }, 'agent packages load failed')
    return { ...base, packages: null, walletBalance }
  }
}
