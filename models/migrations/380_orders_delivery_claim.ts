import type { MigrationFn } from '../migrate.ts'

// A paid order is its own queue row (ADR 0056): the delivery pump claims QUEUED orders with no attempt
// yet straight from this index, in id order, with SKIP LOCKED, instead of a job added per order.
// `delivery_claim` names the worker pool (its liveness connection, ADR 0032) that claimed the order, so
// a claim whose process died (kill -9) is taken back as soon as that connection is gone, as a job's lock is.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE orders ADD COLUMN delivery_claim text;
CREATE INDEX orders_delivery_waiting_idx ON orders (id) WHERE delivery_status = 'QUEUED' AND delivery_attempts = 0;
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
       o.shop_id, o.shop_agent_id, o.shop_price_pesewas, o.shop_agent_price_pesewas, o.shop_margin_pesewas,
       o.batch_id,
       o.parent_agent_id, o.parent_price_pesewas, o.parent_margin_pesewas,
       o.delivery_claim
  FROM orders o
  LEFT JOIN order_exports x ON x.order_id = o.id;
`)
}
