import type { PageContextServer } from 'vike/types'
import type { AgentOrdersService } from '../../../server/services/orders/agent-orders.ts'
import type { InboxItem } from '../../../server/services/messages/inbox.ts'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'
import { isActiveAgent } from '../../../renderer/format.ts'

export type Summary = Awaited<ReturnType<AgentOrdersService['summary']>>
export interface DashboardData extends AgentBase {
  summary: Summary | null
  messages: InboxItem[] | null
  unreadCount: number
  walletBalance: number | null
}

// The same agent's data between loads comes from memory until a row it shows changes (ADR 0048).
export async function data(pageContext: PageContextServer): Promise<DashboardData> {
  const { services, user } = pageContext
  const agentId = user?.role === 'AGENT' ? user.agent?.id : undefined
  if (!services || agentId === undefined) return load(pageContext)
  return services.pageData.get(`agent:${agentId}`, () => load(pageContext))
}

async function load(pageContext: PageContextServer): Promise<DashboardData> {
  const base = await loadAgentBase(pageContext)
  const out: DashboardData = { ...base, summary: null, messages: null, unreadCount: 0, walletBalance: null }
  const { services, user } = pageContext
  // Orders figures and messages exist only for approved, paid agents (the services check it again).
  if (!services || !user || !isActiveAgent(base.agent)) return out
  const ctx = { user }
  const [summary, messages, unread, wallet] = await Promise.all([
    services.agentOrders.summary(ctx),
    services.inbox.myMessages(ctx, { limit: 20 }),
    services.inbox.unreadCount(ctx),
    services.wallet.mine(ctx)
  ])
  return { ...out, summary, messages, unreadCount: unread.unreadCount, walletBalance: wallet.balance }
}
