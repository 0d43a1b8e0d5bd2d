import type { MigrationFn } from '../migrate.ts'

// Every Paystack-paid order writes `gateway_events` twice (its charge.success kept, then marked handled), and each
// write sent 'page:overview' (migration 340): the transactions that wrote it took PostgreSQL's one notify lock at
// commit and held it across their WAL flush, the settlement's too once the mark moved into it (ADR 0067), so they
// committed one after another. Migration 381 stopped the same notice from `orders` and `payments` for the same
// reason; the kept overview lives a few seconds (page-data), so an unhandled event shows on it that much later at
// most. The attention page itself is not kept: it reads the events on every load.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql('DROP TRIGGER gateway_events_overview_page_notify ON gateway_events')
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql(`CREATE TRIGGER gateway_events_overview_page_notify AFTER INSERT OR UPDATE OR DELETE ON gateway_events
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_page_statement('overview')`)
}
