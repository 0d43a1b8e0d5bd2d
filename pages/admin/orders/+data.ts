import type { PageContextServer } from 'vike/types'
import type { Pagination } from '../../../server/lib/lists.ts'
import type { AdminOrder } from '../../../server/services/orders/admin.ts'

export interface OrdersData {
  orders: AdminOrder[]
  pagination: Pagination | null
  deliveryStatus?: string
  batchId?: string
}

const DELIVERY = ['NOT_STARTED', 'QUEUED', 'PROCESSING', 'DELIVERED', 'FAILED', 'MANUAL']

// The first page of active orders, rendered on the server; filters and paging then call the API.
export async function data(pageContext: PageContextServer): Promise<OrdersData> {
  if (pageContext.user?.role !== 'ADMIN' || !pageContext.services) return { orders: [], pagination: null }
  // The overview's 'Needs attention' link opens the list filtered: ?deliveryStatus=FAILED.
  const wanted = String(pageContext.urlParsed?.search?.deliveryStatus ?? '').toUpperCase()
  const deliveryStatus = DELIVERY.includes(wanted) ? wanted : undefined
  // A bulk order's lines: ?batchId= (the bulk orders page links here).
  const batch = String(pageContext.urlParsed?.search?.batchId ?? '')
  const batchId = /^\d{1,9}$/.test(batch) ? batch : undefined
  return { ...(await pageContext.services.ordersAdmin.list({ page: 1, limit: 20, deliveryStatus, batchId })), deliveryStatus, ...(batchId ? { batchId } : {}) }
}
