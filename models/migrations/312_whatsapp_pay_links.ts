import type { MigrationFn } from '../migrate.ts'

// A chat's order may be paid through a link to a short pay page (docs/whatsapp.md). Only the token's
// SHA-256 is kept, so the table cannot be read back into working links; the link pays that one
// order while it is unpaid and before it expires.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE whatsapp_orders ADD COLUMN pay_token_hash TEXT, ADD COLUMN pay_expires_at TIMESTAMPTZ;
CREATE UNIQUE INDEX whatsapp_orders_pay_token ON whatsapp_orders (pay_token_hash) WHERE pay_token_hash IS NOT NULL;
`)
}
