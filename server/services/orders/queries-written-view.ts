/**
 * orders_view's row (models/migrations/380_*) of an order written by this statement, from its RETURNING row `o`: a new
 * order has no export row, so the view's join adds nothing (not exported, its own delivery status and times). The
 * CTE's rows are not visible to the statement's reads of orders_view, so the row is built from `o`, its columns in the
 * view's order, each named with VIEW_PREFIX (the payment's columns share the row).
 */
const VIEW_PREFIX = 'view__'
export const VIEW_OF_WRITTEN = [
  'id',
  'user_id',
  'agent_id',
  'package_id',
  'package_name',
  'recipient_number',
  'network',
  'data_size_mb',
  'amount_pesewas',
  'payment_status',
  'payment_transaction_id',
  'payment_phone_number',
  'channel',
  'delivered',
  'delivered_at',
  ['false', 'exported'],
  ['NULL::timestamptz', 'exported_at'],
  'created_at',
  'updated_at',
  'delivery_status',
  'delivery_vendor',
  'delivery_reference',
  'delivery_attempts',
  'delivery_error',
  'simulated',
  'shop_id',
  'shop_agent_id',
  'shop_price_pesewas',
  'shop_agent_price_pesewas',
  'shop_margin_pesewas',
  'batch_id',
  'parent_agent_id',
  'parent_price_pesewas',
  'parent_margin_pesewas',
  'delivery_claim'
]
  .map((c) => (typeof c === 'string' ? `o.${c} AS ${VIEW_PREFIX}${c}` : `${c[0]} AS ${VIEW_PREFIX}${c[1]}`))
  .join(', ')

/** The orders_view row of `VIEW_OF_WRITTEN`'s columns, and the rest of the row. */
export function splitView(row: Record<string, unknown>): { view: Record<string, unknown>; rest: Record<string, unknown> } {
  const view: Record<string, unknown> = {}
  const rest: Record<string, unknown> = {}
  for (const key in row) {
    if (key.startsWith(VIEW_PREFIX)) view[key.slice(VIEW_PREFIX.length)] = row[key]
    else rest[key] = row[key]
  }
  return { view, rest }
}
