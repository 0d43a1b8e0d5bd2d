import type { OrderView } from '../../server/services/orders/view.ts'

/**
 * The orders this browser saw (its purchases, its order look-ups), kept on the device so they stay
 * readable offline (ADR 0044). Only what an order card shows, newest first; the server stays the truth
 * and the card says when the status was last seen.
 */
export const SEEN_ORDERS_KEY = 'rdh_seen_orders'
export const SEEN_ORDERS_MAX = 10

export type SeenOrder = Pick<
  OrderView,
  'id' | 'network' | 'packageName' | 'dataSizeMB' | 'amount' | 'recipientNumber' | 'paymentStatus' | 'paymentTransactionId' | 'createdAt'
> & {
  /** When this browser last saw the status (ISO time). */
  seenAt: string
}

const isSeenOrder = (o: unknown): o is SeenOrder =>
  !!o &&
  typeof o === 'object' &&
  typeof (o as SeenOrder).id === 'number' &&
  typeof (o as SeenOrder).paymentStatus === 'string' &&
  typeof (o as SeenOrder).seenAt === 'string'

export function loadSeenOrders(): SeenOrder[] {
  try {
    const v = JSON.parse(localStorage.getItem(SEEN_ORDERS_KEY) ?? '[]')
    return Array.isArray(v) ? v.filter(isSeenOrder).slice(0, SEEN_ORDERS_MAX) : []
  } catch {
    return []
  }
}

/** Adds or refreshes orders (by id); the ones just seen go first. */
export function rememberOrders(orders: Omit<SeenOrder, 'seenAt'>[]): void {
  if (!orders.length) return
  const seenAt = new Date().toISOString()
  const fresh = orders.map((o) => ({
    id: o.id,
    network: o.network,
    packageName: o.packageName,
    dataSizeMB: o.dataSizeMB,
    amount: o.amount,
    recipientNumber: o.recipientNumber,
    paymentStatus: o.paymentStatus,
    paymentTransactionId: o.paymentTransactionId,
    createdAt: o.createdAt,
    seenAt
  }))
  const ids = new Set(fresh.map((o) => o.id))
  try {
    localStorage.setItem(SEEN_ORDERS_KEY, JSON.stringify([...fresh, ...loadSeenOrders().filter((o) => !ids.has(o.id))].slice(0, SEEN_ORDERS_MAX)))
  } catch {
    /* private mode or full: nothing kept offline */
  }
}
