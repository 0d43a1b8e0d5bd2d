import type { PageContextServer } from 'vike/types'
import type { ShopsService } from '../../../server/services/shops/index.ts'

export type AdminShopsData = Awaited<ReturnType<ShopsService['list']>>

// /admin/shops: every agent's shop with its figures, rendered on the server.
export async function data(pageContext: PageContextServer): Promise<AdminShopsData> {
  if (!pageContext.services || pageContext.user?.role !== 'ADMIN') return { shops: [] }
  return pageContext.services.shops.list()
}
