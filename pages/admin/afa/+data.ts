import type { PageContextServer } from 'vike/types'
import type { AdminAfa } from '../../../server/services/afa/admin.ts'
import type { Pagination } from '../../../server/lib/lists.ts'

export interface AfaData {
  registrations: AdminAfa[]
  pagination: Pagination | null
}

export async function data(pageContext: PageContextServer): Promise<AfaData> {
  if (pageContext.user?.role !== 'ADMIN' || !pageContext.services) return { registrations: [], pagination: null }
  return pageContext.services.afaAdmin.list({ page: 1, limit: 20 })
}
