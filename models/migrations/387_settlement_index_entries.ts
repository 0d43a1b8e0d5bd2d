import type { MigrationFn } from '../migrate.ts'

// Every index of a table gets an entry on each insert and on each update that is not HOT, and PostgreSQL opens
// every index of the table for each statement that writes it. A paid order's settlement inserts its commission
// and its audit entry and updates its payment and its order (not HOT: their statuses are in partial indexes'
// conditions), so each index below cost an entry per paid order, for no reader or for rows no reader asks for
// (ADR 0069):
// - commissions_archived_idx (archived, created_at DESC) has the keys of commissions_report_idx (archived,
//   created_at), which is read backwards for the newest first;
// - commissions_agent_idx (agent_id) has the key of commissions_agent_report_idx (agent_id) WHERE agent_id IS NOT
//   NULL: every lookup is by an agent (`agent_id = x`, the agents' foreign key too), which implies the condition;
// - audit_time_idx (timestamp DESC) is the first column of audit_time_id_idx (timestamp DESC, id DESC);
// - orders_user_idx and payments_agent_idx also held an entry for every visitor's order and payment (no user, no
//   agent), which no statement looks up: the lookups are by a user or an agent, as above.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX IF EXISTS commissions_archived_idx;
DROP INDEX IF EXISTS commissions_agent_idx;
DROP INDEX IF EXISTS audit_time_idx;
DROP INDEX IF EXISTS orders_user_idx;
CREATE INDEX orders_user_idx ON orders (user_id, created_at DESC) WHERE user_id IS NOT NULL;
DROP INDEX IF EXISTS payments_agent_idx;
CREATE INDEX payments_agent_idx ON payments (agent_id) WHERE agent_id IS NOT NULL;
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE INDEX IF NOT EXISTS commissions_archived_idx ON commissions (archived, created_at DESC);
CREATE INDEX IF NOT EXISTS commissions_agent_idx ON commissions (agent_id);
CREATE INDEX IF NOT EXISTS audit_time_idx ON audit_logs (timestamp DESC);
DROP INDEX IF EXISTS orders_user_idx;
CREATE INDEX orders_user_idx ON orders (user_id, created_at DESC);
DROP INDEX IF EXISTS payments_agent_idx;
CREATE INDEX payments_agent_idx ON payments (agent_id);
`)
}
