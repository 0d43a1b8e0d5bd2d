import { render } from 'vike/abort'
import type { PageContextServer } from 'vike/types'
import type { BatchLineView, BatchView } from '../../../../server/services/bulk/index.ts'
import { loadAgentBase, type AgentBase } from '../../_shared/agent-data.ts'
import { isActiveAgent } from '../../../../renderer/format.ts'

export interface BatchData extends AgentBase {
  batch: BatchView | null
  lines: BatchLineView[]
}

export async function data(pageContext: PageContextServer): Promise<BatchData> {
  const base = await loadAgentBase(pageContext)
  const { services, user } = pageContext
  if (!services || !user || !isActiveAgent(base.agent)) return { ...base, batch: null, lines: [] }
  try {
    return { ...base, ...(await services.bulk.get(pageContext.routeParams.id, { user })) }
  } catch (err) {
    // Another agent's batch reads exactly like a missing one. By status, not class: the built page
    // carries its own copy of the error classes, so `instanceof` fails across the bundle.
    if ((err as { status?: number }).status === 404) throw render(404, 'Bulk order not found')
    throw err
  }
}
