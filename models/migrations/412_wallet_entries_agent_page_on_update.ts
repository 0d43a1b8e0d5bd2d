import type { MigrationFn } from '../migrate.ts'

// A wallet entry is only ever inserted together with its agent's balance: the ledger's `moveLockedBalance` writes the
// entry then the wallets row, and a wallet order's statement inserts its entry only from the wallets UPDATE's row, both
// in one transaction for the same agent. The wallets row's trigger queues the same 'page:agent:<id>' notice, which
// PostgreSQL sends once at commit, so the entry's own call was a second plpgsql call (two to_jsonb of the row) for a
// notice already queued: about a third of a wallet order's page-notice calls. Entries are never deleted (their
// BEFORE DELETE trigger refuses); the one UPDATE they allow (the actor unlinked when that user is deleted) still
// notifies, as no wallets row changes with it (ADR 0078).
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP TRIGGER wallet_entries_agent_page_notify ON wallet_entries;
CREATE TRIGGER wallet_entries_agent_page_notify AFTER UPDATE ON wallet_entries
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_agent_page('agent_id');
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP TRIGGER wallet_entries_agent_page_notify ON wallet_entries;
CREATE TRIGGER wallet_entries_agent_page_notify AFTER INSERT OR UPDATE OR DELETE ON wallet_entries
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_agent_page('agent_id');
`)
}
