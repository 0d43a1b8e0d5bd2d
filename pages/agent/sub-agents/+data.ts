import type { PageContextServer } from 'vike/types'
import type { SubAgentsService } from '../../../server/services/sub-agents/index.ts'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'
import { isActiveAgent } from '../../../renderer/format.ts'
import { publicOrigin } from '../../../server/lib/origin.ts'

export interface SubAgentsData extends AgentBase {
  /** The parent's view (null for a sub-agent). */
  mine: Awaited<ReturnType<SubAgentsService['mine']>> | null
  /** A sub-agent's view of its parent and prices. */
  parent: Awaited<ReturnType<SubAgentsService['myParent']>> | null
  origin: string
}

// /agent/sub-agents: a parent's sub-agents, their prices and its earnings from them; a sub-agent's parent and prices.
export async function data(pageContext: PageContextServer): Promise<SubAgentsData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  const headers = (pageContext.headersOriginal ?? {}) as Record<string, string | undefined>
  const origin = publicOrigin(services?.deps.env.PUBLIC_URL, { host: headers.host })
  if (!services || !user || !isActiveAgent(base.agent)) return { ...base, mine: null, parent: null, origin }
  if (base.agent?.parentAgentId) return { ...base, mine: null, parent: await services.subAgents.myParent({ user }), origin }
  return { ...base, mine: await services.subAgents.mine({ user }), parent: null, origin }
}
