import type { MigrationFn } from '../migrate.ts'

// The overview's checker sales per product read only the period's sold cards, from this index alone
// (ADR 0042). Cards are written at upload and once at sale, so the index costs the order path nothing.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE INDEX voucher_cards_sold_at_idx ON voucher_cards (sold_at) INCLUDE (product_id, payment_transaction_id) WHERE status = 'SOLD';
`)
}
