/**
 * Transaction-level advisory lock between the CSV export (exclusive, orders/admin.ts) and every change
 * that takes an order out of the exportable state (shared: every delivery status change from
 * NOT_STARTED or FAILED in state.ts, a refund's decision). Without row locks on orders, this is what
 * keeps an order from being both exported and sent to a vendor (or marked by hand, or refunded) by
 * transactions running at the same moment. It lives with delivery, the lowest of its users, so that
 * delivery and payments need nothing from orders.
 */
export const EXPORT_LOCK = 16_190_004
