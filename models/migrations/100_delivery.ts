import type { MigrationFn } from '../migrate.ts'

// Delivery state apart from payment state. `delivered` stays the spec's flag and is true
// exactly when delivery_status is DELIVERED (vendor) or MANUAL (exported or marked by hand).
// Orders already delivered by hand become MANUAL. One small partial index holds the orders that need
// a look (failed, or still on their way) for the overview count and the sync sweep. Trade-off: an
// index that names delivery_status makes any UPDATE of that column non-HOT (051), so the export,
// which now sets MANUAL, pays index maintenance on this one index; updated_at stays unindexed.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE orders
  ADD COLUMN delivery_status TEXT NOT NULL DEFAULT 'NOT_STARTED'
    CHECK (delivery_status IN ('NOT_STARTED','QUEUED','PROCESSING','DELIVERED','FAILED','MANUAL')),
  ADD COLUMN delivery_vendor TEXT,
  ADD COLUMN delivery_reference TEXT,
  ADD COLUMN delivery_attempts INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN delivery_error TEXT;
UPDATE orders SET delivery_status = 'MANUAL' WHERE delivered;
CREATE INDEX orders_delivery_open_idx ON orders (delivery_status) WHERE delivery_status IN ('QUEUED','PROCESSING','FAILED');

ALTER TABLE sms_outbox
  ADD COLUMN provider TEXT,
  ADD COLUMN provider_message_id TEXT,
  ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN error TEXT,
  ADD COLUMN sent_at TIMESTAMPTZ,
  ADD COLUMN updated_at TIMESTAMPTZ NOT NULL DEFAULT now();
ALTER TABLE sms_outbox ADD CONSTRAINT sms_outbox_status_check CHECK (status IN ('QUEUED','SENDING','SENT','FAILED'));
CREATE INDEX sms_outbox_created_idx ON sms_outbox (created_at DESC);
CREATE INDEX sms_outbox_queued_idx ON sms_outbox (created_at) WHERE status IN ('QUEUED','SENDING');
`)
}
