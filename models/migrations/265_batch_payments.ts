import type { MigrationFn } from '../migrate.ts'

// A bulk order paid by mobile money (ADR 0039): the batch waits for its one payment (purpose 'batch')
// with its checked lines kept on it; the settlement that makes the payment SUCCESS writes the orders,
// a failed or expired one cancels the batch. Batches paid from the wallet are PAID from the start.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE payments DROP CONSTRAINT IF EXISTS payments_purpose_check;
ALTER TABLE payments ADD CONSTRAINT payments_purpose_check CHECK (purpose IN ('data','afa','agent_fee','wallet_topup','batch'));

ALTER TABLE order_batches
  ADD COLUMN status TEXT NOT NULL DEFAULT 'PAID' CHECK (status IN ('AWAITING_PAYMENT','PAID','CANCELLED')),
  ADD COLUMN payment_transaction_id TEXT UNIQUE,
  ADD COLUMN pending_lines JSONB;
`)
}
