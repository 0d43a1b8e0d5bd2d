import type { MigrationFn } from '../migrate.ts'

// The delivery simulator answers a resent call (same idempotency key) with the reference it gave
// the first time, as a real vendor does, also after the shop was killed mid-call and restarted:
// so the keys it has seen live in the database, not in the process.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE delivery_simulator_sends (
  key text PRIMARY KEY,
  reference text NOT NULL,
  confirm_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
`)
}
