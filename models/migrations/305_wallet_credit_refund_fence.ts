import type { MigrationFn } from '../migrate.ts'

// A refunded top-up (or bulk order payment) takes its credit back out of the wallet once (ADR 0045):
// the refund's debit carries the payment's reference, and this index lets one such entry exist per payment,
// a second fence behind the payment row's lock.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE UNIQUE INDEX wallet_entries_credit_refund_key ON wallet_entries (payment_transaction_id)
  WHERE type = 'ADJUSTMENT' AND payment_transaction_id IS NOT NULL;
`)
}
