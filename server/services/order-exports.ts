// The CSV export's record (ADR 0021): an order is exported when it has a row in order_exports; its
// orders row is left as it was. Read delivery/export state through orders_view (migration 190).

/**
 * What "pending" means for the export: paid, not yet delivered, not exported before, and not being
 * delivered automatically (issue 11): never sent (manual mode) or failed at the vendor. Over
 * `orders o`: an exported order keeps its row as it was (ADR 0021), so the export is the row in
 * order_exports.
 */
export const EXPORTABLE = `o.payment_status = 'SUCCESS' AND NOT o.delivered AND o.delivery_status IN ('NOT_STARTED','FAILED')
  AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)`
/**
 * Transaction-level advisory lock between the export (exclusive) and every change that takes an
 * order out of the exportable state (shared: every delivery status change from NOT_STARTED or
 * FAILED, delivery/state.ts). Without row locks on orders, this is what keeps an order from being
 * both exported and sent to a vendor (or marked by hand) by transactions running at the same moment.
 */
export const EXPORT_LOCK = 16_190_004
