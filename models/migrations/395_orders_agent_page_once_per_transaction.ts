import type { MigrationFn } from '../migrate.ts'

// A wallet order is inserted and paid in one transaction: its INSERT queued the agent's page notice, and
// settlement's UPDATE of the same row called the plpgsql function again (two to_jsonb of each row version)
// for the same 'page:agent:<id>', which PostgreSQL then drops at commit as a duplicate. The UPDATE's trigger
// now also skips a row version this transaction wrote itself (OLD.xmin is its own id) when the agent stays the
// same: that write's trigger already queued the same notice (by induction: the INSERT, or an UPDATE that ran
// the function). PostgreSQL's own foreign-key triggers ask the same question of OLD. A version written in a
// savepoint carries the savepoint's id and still notifies, as before. Evaluated in C, like migration 375's.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP TRIGGER orders_agent_page_notify_upd ON orders;
CREATE TRIGGER orders_agent_page_notify_upd AFTER UPDATE ON orders
  FOR EACH ROW WHEN ((OLD.agent_id IS NOT NULL OR NEW.agent_id IS NOT NULL)
    AND NOT (OLD.xmin = xid(pg_current_xact_id()) AND OLD.agent_id IS NOT DISTINCT FROM NEW.agent_id))
  EXECUTE FUNCTION datahub_notify_agent_page('agent_id');
`)
}
