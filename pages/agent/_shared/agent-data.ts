import type { PageContextServer } from 'vike/types'
import type { AgentView } from '../../../server/services/agents/index.ts'

export interface AgentBase {
  agent: AgentView | null
  fee: number
  /** 'card' redirects to the provider's checkout; anything else is a mobile-money prompt. */
  method: 'card' | 'momo'
}

/** What every agent page starts from: the agent's own profile (never another's) and the fee and gateway. */
export async function loadAgentBase(pageContext: PageContextServer): Promise<AgentBase> {
  const { services, user } = pageContext
  const settings = pageContext.settings
  const base: AgentBase = { agent: null, fee: Number(settings?.agentRegistrationFee ?? 0), method: settings?.paymentGateway === 'paystack' ? 'card' : 'momo' }
  if (!services || user?.role !== 'AGENT' || !user.agent) return base
  try {
    base.agent = await services.agents.me({ user })
  } catch (err) {
    // Spec section 8: profile load failures are logged and basic data is used instead.
    pageContext.services?.deps.log.warn({ err: { message: (err as Error).message } }, 'agent profile load failed')
  }
  return base
}
