import type { MigrationFn } from '../migrate.ts'

// ADR 0019 (built) and 0021: the CSV export records what it took in a narrow
// table instead of updating every exported order. Updating an order writes a new ~300-byte row
// version plus an entry in each of its dozen indexes (~16,000 rows/s); one `order_exports` row is
// ~40 bytes and two small index entries.
//
// - `order_exports(order_id, exported_at)`: an order is exported exactly when it has a row here.
//   No foreign key on purpose: its check would lock every exported order row (the write we avoid);
//   order ids are never reused, and a deleted order's row joins to nothing.
// - `orders.exported` / `orders.exported_at` go (moved here), so nothing can read a stale copy.
// - `orders_view`: every column of `orders` with the export applied. An exported order reads as
//   exported, delivered (at the export time unless delivered before), delivery_status MANUAL, no
//   delivery error, updated_at at least the export time. Code that shows or decides on delivery
//   state reads orders_view; writers write orders. A column added to orders must be added here too
//   (test/integration/order-exports.test.ts compares the two).
// - The history lists exports newest first through order_exports_at_idx; the export reads its own
//   rows back through the same index (exported_at = its stamp).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE order_exports (
  order_id    INTEGER PRIMARY KEY,
  exported_at TIMESTAMPTZ NOT NULL
);
INSERT INTO order_exports (order_id, exported_at)
  SELECT id, COALESCE(exported_at, delivered_at, updated_at) FROM orders WHERE exported;
CREATE INDEX order_exports_at_idx ON order_exports (exported_at DESC, order_id DESC);
ANALYZE order_exports;

DROP INDEX IF EXISTS orders_history_idx;
ALTER TABLE orders DROP COLUMN exported, DROP COLUMN exported_at;

CREATE VIEW orders_view AS
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
       o.simulated
  FROM orders o
  LEFT JOIN order_exports x ON x.order_id = o.id;
`)
}
