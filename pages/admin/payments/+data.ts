import type { PageContextServer } from 'vike/types'
import type { AttentionItem } from '../../../server/services/payments/attention.ts'

export interface ReconciliationRun {
  id: number
  day: string
  gateway: string
  status: string
  gatewayCount: number
  localCount: number
  mismatches: number
  message: string | null
  startedAt: string
}
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
