import type { PageContextServer } from 'vike/types'
import { toGhs } from '../../../server/lib/money.ts'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'

export interface PricedPackage {
  id: number
  network: string
  name: string
  sizeMB: number
  regular: number
  agent: number
}
export interface PackagesData extends AgentBase {
  packages: PricedPackage[] | null
}

export async function data(pageContext: PageContextServer): Promise<PackagesData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  if (!services) return { ...base, packages: null }
  try {
    const rows = await services.packages.listActive()
    const quotes = await services.pricing.quotes(user, rows)
    return {
      ...base,
      packages: rows.map((p) => {
        const v = services.packages.present(p)
        // What this agent pays now: its tier's price, or its parent's price for it (ADR 0041).
        return { id: v.id, network: v.network, name: v.name, sizeMB: v.sizeMB, regular: v.priceUser ?? 0, agent: toGhs(quotes.get(p.id)!.pricePesewas) ?? 0 }
      })
    }
  } catch (err) {
    services.deps.log.warn({ err: { message: (err as Error).message } }, 'agent packages load failed')
    return { ...base, packages: null }
  }
}
