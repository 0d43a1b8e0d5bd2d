import type { PageContextServer } from 'vike/types'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'
import { isActiveAgent } from '../../../renderer/format.ts'
import type { PayoutsView } from './status.tsx'

export interface PayoutsData extends AgentBase {
  payouts: PayoutsView | null
}

export async function data(pageContext: PageContextServer): Promise<PayoutsData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  if (!services || !user || !isActiveAgent(base.agent)) return { ...base, payouts: null }
  return { ...base, payouts: await services.payouts.mine({ user }) }
}
