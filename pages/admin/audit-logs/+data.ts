import type { PageContextServer } from 'vike/types'
import type { AuditLogView } from '../../../server/services/audit/logs.ts'

export interface AuditLogsData {
  logs: AuditLogView[]
  pagination: { page: number; limit: number; total: number; totalPages: number; hasNext: boolean; hasPrev: boolean; estimated: boolean } | null
  actions: string[]
}

// First page with the default size (50) and the actions for the filter; the global guard keeps non-admins out, this checks again.
export async function data(pageContext: PageContextServer): Promise<AuditLogsData> {
  const services = pageContext.services
  if (pageContext.user?.role !== 'ADMIN' || !services) return { logs: [], pagination: null, actions: [] }
  const [first, actions] = await Promise.all([services.auditLogs.list({ page: 1, limit: 50 }), services.auditLogs.actions()])
  return { ...first, actions }
}
