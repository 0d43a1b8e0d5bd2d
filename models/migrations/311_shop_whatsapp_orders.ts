import type { MigrationFn } from '../migrate.ts'

// An agent's shop may take orders in the WhatsApp chat (docs/shops.md): off until its agent turns it on.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`ALTER TABLE shops ADD COLUMN whatsapp_orders BOOLEAN NOT NULL DEFAULT false;`)
}
