import type { MigrationFn } from '../migrate.ts'

// Each audit entry costs an entry in every index of audit_logs, and the entries that come with every order are the
// system's own: a settlement's PAYMENT_SUCCESS from the gateway's callback and a delivery's ORDER_DELIVERED carry
// no user and no IP, and nearly every entry is LOW (the default). The audit log page's filters look up a user
// (`user_id = x`, the users' foreign key too), an IP (`ip_address IN (a, b)`) or a severity (`severity = x`), each a
// strict comparison that implies the partial condition below, so the planner still picks these indexes for them
// (ADR 0078). A LOW filter matches most of the log: it reads audit_time_id_idx newest first, as an unfiltered page
// does, and stops at the page's end.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX IF EXISTS audit_user_idx;
CREATE INDEX audit_user_idx ON audit_logs (user_id, timestamp DESC) WHERE user_id IS NOT NULL;
DROP INDEX IF EXISTS audit_ip_idx;
CREATE INDEX audit_ip_idx ON audit_logs (ip_address, timestamp DESC) WHERE ip_address IS NOT NULL;
DROP INDEX IF EXISTS audit_severity_idx;
CREATE INDEX audit_severity_idx ON audit_logs (severity, timestamp DESC) WHERE severity <> 'LOW';
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX IF EXISTS audit_user_idx;
CREATE INDEX audit_user_idx ON audit_logs (user_id, timestamp DESC);
DROP INDEX IF EXISTS audit_ip_idx;
CREATE INDEX audit_ip_idx ON audit_logs (ip_address, timestamp DESC);
DROP INDEX IF EXISTS audit_severity_idx;
CREATE INDEX audit_severity_idx ON audit_logs (severity, timestamp DESC);
`)
}
