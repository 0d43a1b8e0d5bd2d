import type { PageContextServer } from 'vike/types'
import type { AdminOrder, Pagination } from '../../../server/services/orders-admin.ts'

export interface OrdersData { orders: AdminOrder[]; pagination: Pagination | null }

// The first page of active orders, rendered on the server; filters and paging then call the API.
export async function data(pageContext: PageContextServer): Promise<OrdersData> {
  if (pageContext.user?.role !== 'ADMIN' || !pageContext.services) return { orders: [], pagination: null }
  return pageContext.services.ordersAdmin.list({ page: 1, limit: 20 })
}
