import type { PageContextServer } from 'vike/types'
import type { BulkService } from '../../../server/services/bulk/index.ts'

export type AdminBulkData = Awaited<ReturnType<BulkService['adminList']>> | null

// /admin/bulk-orders: every agent's bulk orders, newest first, with their progress (?page=).
export async function data(pageContext: PageContextServer): Promise<AdminBulkData> {
  if (!pageContext.services || pageContext.user?.role !== 'ADMIN') return null
  const page = Number(pageContext.urlParsed.search.page ?? 1)
  return pageContext.services.bulk.adminList({ page: Number.isSafeInteger(page) && page >= 1 && page <= 100000 ? page : 1, limit: 50 })
}
