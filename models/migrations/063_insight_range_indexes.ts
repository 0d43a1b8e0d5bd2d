import type { MigrationFn } from '../migrate.ts'

// Agent leaderboard over a date range (Agent Performance filters): read only the range's paid agent
// orders and agent commissions, from the index alone.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE INDEX orders_agent_success_time_idx ON orders (created_at) INCLUDE (agent_id, amount_pesewas, network)
  WHERE payment_status = 'SUCCESS' AND agent_id IS NOT NULL;
CREATE INDEX commissions_agent_time_idx ON commissions (created_at) INCLUDE (agent_id, commission_amount_pesewas, network)
  WHERE agent_id IS NOT NULL;
`)
}
