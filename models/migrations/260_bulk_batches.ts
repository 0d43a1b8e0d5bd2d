import type { MigrationFn } from '../migrate.ts'

// Bulk orders (ADR 0039): a batch is one payment for many ordinary orders. The wallet pays it with
// one ORDER entry for the whole total (batch_id set, order_id empty); each line is an order carrying
// batch_id, settled and delivered like any wallet order, and refunded to the wallet on its own.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE order_batches (
  id              SERIAL PRIMARY KEY,
  agent_id        INTEGER NOT NULL REFERENCES agents(id) ON DELETE RESTRICT,
  user_id         INTEGER REFERENCES users(id) ON DELETE SET NULL,
  channel         TEXT NOT NULL DEFAULT 'web' CHECK (channel IN ('web','api')),
  line_count      INTEGER NOT NULL CHECK (line_count > 0),
  total_pesewas   BIGINT NOT NULL CHECK (total_pesewas > 0),
  notify_sms      BOOLEAN NOT NULL DEFAULT false,
  -- set once, in the transaction of the change that ended its last line (batch.completed)
  completed_at    TIMESTAMPTZ,
  created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX order_batches_agent_idx ON order_batches (agent_id, created_at DESC, id DESC);
CREATE INDEX order_batches_created_idx ON order_batches (created_at DESC, id DESC);

ALTER TABLE orders ADD COLUMN batch_id INTEGER REFERENCES order_batches(id) ON DELETE RESTRICT;
CREATE INDEX orders_batch_idx ON orders (batch_id, id) WHERE batch_id IS NOT NULL;

-- The one debit of a batch: a second fence behind the wallet row's lock.
ALTER TABLE wallet_entries ADD COLUMN batch_id INTEGER REFERENCES order_batches(id) ON DELETE RESTRICT;
CREATE UNIQUE INDEX wallet_entries_batch_debit_key ON wallet_entries (batch_id) WHERE type = 'ORDER' AND batch_id IS NOT NULL;

CREATE OR REPLACE FUNCTION wallet_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'wallet entries cannot be deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  -- the only change allowed: the actor link going to NULL when that user is deleted
  IF (NEW.id, NEW.agent_id, NEW.type, NEW.amount_pesewas, NEW.balance_after_pesewas, NEW.reason, NEW.payment_transaction_id, NEW.order_id, NEW.created_at, NEW.batch_id)
       IS DISTINCT FROM (OLD.id, OLD.agent_id, OLD.type, OLD.amount_pesewas, OLD.balance_after_pesewas, OLD.reason, OLD.payment_transaction_id, OLD.order_id, OLD.created_at, OLD.batch_id)
     OR (NEW.actor_user_id IS NOT NULL AND NEW.actor_user_id IS DISTINCT FROM OLD.actor_user_id) THEN
    RAISE EXCEPTION 'wallet entries cannot be edited' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $fn$;

-- The reseller API's Idempotency-Key answers with the batch it made.
ALTER TABLE idempotency_keys ADD COLUMN batch_id INTEGER REFERENCES order_batches(id) ON DELETE SET NULL;

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
       o.batch_id
  FROM orders o
  LEFT JOIN order_exports x ON x.order_id = o.id;
`)
}
