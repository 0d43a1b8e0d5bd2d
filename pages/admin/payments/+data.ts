import type { PageContextServer } from 'vike/types'
import type { AttentionItem } from '../../../server/services/payments/attention.ts'
import type { ReconciliationRun } from '../../../server/services/payments/queries-reconcile.ts'

export interface AttentionData {
  items: AttentionItem[]
  runs: ReconciliationRun[]
}

export async function data(pageContext: PageContextServer): Promise<AttentionData> {
  const s = pageContext.services
  if (pageContext.user?.role !== 'ADMIN' || !s) return { items: [], runs: [] }
  const [items, runs] = await Promise.all([s.payments.attention.list(), s.payments.reconciliationRuns(10)])
  return { items, runs }
}
