import type { MigrationFn } from '../migrate.ts'

// Payments and orders taken by the payment simulator carry simulated = true, so admin
// tables, exports and audit can tell demo sales from real ones and delivery never sends them to a
// real vendor (docs/decisions/0016-limiter-and-simulator-rules.md).
// rate_limiter_flexible is the table rate-limiter-flexible's PostgreSQL store reads and writes
// (its own layout); created here so the app never runs DDL at request time.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
    ALTER TABLE payments ADD COLUMN IF NOT EXISTS simulated BOOLEAN NOT NULL DEFAULT false;
    ALTER TABLE orders ADD COLUMN IF NOT EXISTS simulated BOOLEAN NOT NULL DEFAULT false;
    UPDATE payments SET simulated = true WHERE gateway = 'simulator';
    UPDATE orders o SET simulated = true FROM payments p WHERE p.order_id = o.id AND p.gateway = 'simulator';
    CREATE TABLE IF NOT EXISTS rate_limiter_flexible (
      key    VARCHAR(255) PRIMARY KEY,
      points INTEGER NOT NULL DEFAULT 0,
      expire BIGINT
    );
    CREATE INDEX IF NOT EXISTS rate_limiter_flexible_expire_idx ON rate_limiter_flexible (expire);
  `)
}
