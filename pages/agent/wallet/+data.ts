import type { PageContextServer } from 'vike/types'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'
import { isActiveAgent } from '../../../renderer/format.ts'

export interface WalletData extends AgentBase {
  wallet: { balance: number; limits: { min: number; max: number } } | null
}

export async function data(pageContext: PageContextServer): Promise<WalletData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  if (!services || !user || !isActiveAgent(base.agent)) return { ...base, wallet: null }
  return { ...base, wallet: await services.wallet.mine({ user }) }
}
