import type { PageContextServer } from 'vike/types'
import type { BatchView } from '../../../server/services/bulk/index.ts'
import { loadAgentBase, type AgentBase } from '../_shared/agent-data.ts'
import { isActiveAgent } from '../../../renderer/format.ts'

export interface BulkData extends AgentBase {
  balance: number
  maxLines: number
  /** Lines to start from: a batch's failed lines, ordered again (?from=<batch id>). */
  prefill: string
  recent: BatchView[]
}

export async function data(pageContext: PageContextServer): Promise<BulkData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  const empty = { ...base, balance: 0, maxLines: 1000, prefill: '', recent: [] }
  if (!services || !user || !isActiveAgent(base.agent)) return empty
  const from = String(pageContext.urlParsed.search.from ?? '')
  const [wallet, mine, prefill] = await Promise.all([
    services.wallet.mine({ user }),
    services.bulk.mine({ page: 1, limit: 10 }, { user }),
    // An unknown or another agent's batch simply prefills nothing.
    /^\d{1,9}$/.test(from) ? services.bulk.failedText(from, { user }).catch(() => '') : Promise.resolve('')
  ])
  return { ...empty, balance: wallet.balance, maxLines: (await services.settings.get()).bulkMaxLines, prefill, recent: mine.batches }
}
