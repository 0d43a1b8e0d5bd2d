import type { MigrationFn } from '../migrate.ts'

// Result-checker vouchers (docs/vouchers.md, ADR 0040): products, cards from stock with their PIN
// sealed (AES-256-GCM, the key never in the database), a third payment purpose, and a refund kind for
// the part of a paid purchase the stock could not supply.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE voucher_products (
  id SERIAL PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  how_to_use TEXT NOT NULL DEFAULT '',
  checking_url TEXT NOT NULL DEFAULT '',
  price_user_pesewas INTEGER NOT NULL CHECK (price_user_pesewas > 0),
  price_agent_pesewas INTEGER CHECK (price_agent_pesewas > 0),
  shop_ceiling_pesewas INTEGER CHECK (shop_ceiling_pesewas > 0),
  active BOOLEAN NOT NULL DEFAULT true,
  low_stock_threshold INTEGER NOT NULL DEFAULT 10 CHECK (low_stock_threshold >= 0),
  -- Set by the one allocation that crossed the threshold (a conditional UPDATE), cleared by an upload that lifts stock above it.
  low_stock_alerted_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE voucher_cards (
  id BIGSERIAL PRIMARY KEY,
  product_id INTEGER NOT NULL REFERENCES voucher_products(id),
  serial TEXT NOT NULL,
  pin_sealed TEXT NOT NULL,
  expires_on DATE,
  status TEXT NOT NULL DEFAULT 'AVAILABLE' CHECK (status IN ('AVAILABLE','SOLD','VOID')),
  payment_transaction_id TEXT,
  sold_at TIMESTAMPTZ,
  voided_at TIMESTAMPTZ,
  void_reason TEXT,
  uploaded_by INTEGER,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (product_id, serial),
  CHECK ((status = 'SOLD') = (payment_transaction_id IS NOT NULL))
);
CREATE INDEX voucher_cards_available_idx ON voucher_cards (product_id, id) WHERE status = 'AVAILABLE';
CREATE INDEX voucher_cards_payment_idx ON voucher_cards (payment_transaction_id) WHERE payment_transaction_id IS NOT NULL;

ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_purpose_check;
ALTER TABLE payments ADD CONSTRAINT payments_purpose_check CHECK (purpose IN ('data','afa','agent_fee','wallet_topup','batch','voucher'));
ALTER TABLE refunds DROP CONSTRAINT IF EXISTS refunds_kind_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_kind_check CHECK (kind IN ('full','excess','shortfall'));
-- Reseller API checker purchases are idempotent like its orders: the key names the purchase's payment.
ALTER TABLE idempotency_keys ADD COLUMN payment_transaction_id TEXT;
-- A wallet refund of a payment with no order (vouchers) is fenced by its refund's id, carried in the reason.
CREATE UNIQUE INDEX wallet_entries_payment_refund_key ON wallet_entries (payment_transaction_id, reason) WHERE type = 'REFUND' AND order_id IS NULL;
`)
}
