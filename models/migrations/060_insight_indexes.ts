import type { MigrationFn } from '../migrate.ts'

// Audit log filters and commission reports at a million orders (figures in
// docs/benchmarks-insight.md). Each index names the query it serves.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
-- Audit log filters other than action and user (those have indexes already), newest first.
CREATE INDEX audit_resource_idx ON audit_logs (resource, timestamp DESC);
CREATE INDEX audit_severity_idx ON audit_logs (severity, timestamp DESC);
CREATE INDEX audit_ip_idx ON audit_logs (ip_address, timestamp DESC);
CREATE INDEX audit_resource_id_idx ON audit_logs (resource_id);

-- Commission totals, current/archived split, date ranges and group-by day/week/month/network/agent
-- read this index alone (index-only scan), never the table.
CREATE INDEX commissions_report_idx ON commissions (archived, created_at)
  INCLUDE (commission_amount_pesewas, original_amount_pesewas, agent_id, network);
-- Commission per agent for the leaderboard.
CREATE INDEX commissions_agent_report_idx ON commissions (agent_id)
  INCLUDE (commission_amount_pesewas, created_at, network) WHERE agent_id IS NOT NULL;
-- Leaderboard revenue: each agent's SUCCESS orders.
CREATE INDEX orders_agent_success_idx ON orders (agent_id)
  INCLUDE (amount_pesewas, created_at, network) WHERE payment_status = 'SUCCESS' AND agent_id IS NOT NULL;
`)
}
