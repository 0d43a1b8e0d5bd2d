import type { PageContextServer } from 'vike/types'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'

export interface PricedPackage { id: number; network: string; name: string; sizeMB: number; regular: number; agent: number }
export interface PackagesData extends AgentBase { packages: PricedPackage[] | null }

export async function data(pageContext: PageContextServer): Promise<PackagesData> {
  const base = await loadAgentBase(pageContext)
  const services = pageContext.services
  if (!services) return { ...base, packages: null }
  try {
    const rows = await services.packages.listActive()
    return {
      ...base,
      packages: rows.map((p) => {
        const v = services.packages.present(p)
        // The agent price list: priceAgent when set, else the regular price.
        return { id: v.id, network: v.network, name: v.name, sizeMB: v.sizeMB, regular: v.priceUser ?? 0, agent: v.priceAgent ?? v.priceUser ?? 0 }
      }),
    }
  } catch (err) {
    services.deps.log.warn({ err: { message: (err as Error).message } }, 'agent packages load failed')
    return { ...base, packages: null }
  }
}
