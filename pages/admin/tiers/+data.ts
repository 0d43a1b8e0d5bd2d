import type { PageContextServer } from 'vike/types'
import type { SubAgentsService } from '../../../server/services/sub-agents/index.ts'
import type { TiersService } from '../../../server/services/pricing/tiers.ts'

export interface TiersData {
  tiers: Awaited<ReturnType<TiersService['list']>>
  /** ?agentId=: that agent's place in the sub-agent tree. */
  tree: Awaited<ReturnType<SubAgentsService['tree']>> | null
}

// /admin/tiers: the dealer tiers and, from the Agents page's Tree link, one agent's tree.
export async function data(pageContext: PageContextServer): Promise<TiersData> {
  const { services, user } = pageContext
  if (user?.role !== 'ADMIN' || !services) return { tiers: [], tree: null }
  const agentId = pageContext.urlParsed.search.agentId
  const [tiers, tree] = await Promise.all([services.tiers.list(), agentId ? services.subAgents.tree(agentId).catch(() => null) : null])
  return { tiers, tree }
}
