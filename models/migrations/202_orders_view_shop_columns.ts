import type { MigrationFn } from '../migrate.ts'

// orders_view (migration 190, ADR 0021) lists the columns of orders one by one; the shop sale columns
// of migration 201 join it at the end (CREATE OR REPLACE VIEW may only add columns after the others).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE OR REPLACE VIEW orders_view AS
SELECT o.id, o.user_id, o.agent_id, o.package_id, o.package_name, o.recipient_number, o.network, o.data_size_mb,
       o.amount_pesewas, o.payment_status, o.payment_transaction_id, o.payment_phone_number, o.channel,
       (o.delivered OR x.order_id IS NOT NULL) AS delivered,
       COALESCE(o.delivered_at, x.exported_at) AS delivered_at,
       (x.order_id IS NOT NULL) AS exported,
       x.exported_at,
       o.created_at,
       GREATEST(o.updated_at, x.exported_at) AS updated_at,
       CASE WHEN x.order_id IS NULL THEN o.delivery_status ELSE 'MANUAL' END AS delivery_status,
       o.delivery_vendor, o.delivery_reference, o.delivery_attempts,
       CASE WHEN x.order_id IS NULL THEN o.delivery_error END AS delivery_error,
       o.simulated,
       o.shop_id, o.shop_agent_id, o.shop_price_pesewas, o.shop_agent_price_pesewas, o.shop_margin_pesewas
  FROM orders o
  LEFT JOIN order_exports x ON x.order_id = o.id;
`)
}
