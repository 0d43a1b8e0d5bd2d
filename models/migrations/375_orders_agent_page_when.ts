import type { MigrationFn } from '../migrate.ts'

// The agent's page notice on orders (migration 340) ran its function for every written row, and a visitor's
// order (no agent) paid a plpgsql call, two to_jsonb of the row and a notice it then did not send, on its
// INSERT and again on the gateway's answer's UPDATE: both on the way to the visitor's answer. The same function
// now runs only for rows that name an agent; the WHEN clauses are evaluated in C (as migration 355's). A WHEN
// cannot name OLD on an INSERT nor NEW on a DELETE, hence one trigger per event. Same notices as before.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP TRIGGER orders_agent_page_notify ON orders;
CREATE TRIGGER orders_agent_page_notify_ins AFTER INSERT ON orders
  FOR EACH ROW WHEN (NEW.agent_id IS NOT NULL) EXECUTE FUNCTION datahub_notify_agent_page('agent_id');
CREATE TRIGGER orders_agent_page_notify_upd AFTER UPDATE ON orders
  FOR EACH ROW WHEN (OLD.agent_id IS NOT NULL OR NEW.agent_id IS NOT NULL) EXECUTE FUNCTION datahub_notify_agent_page('agent_id');
CREATE TRIGGER orders_agent_page_notify_del AFTER DELETE ON orders
  FOR EACH ROW WHEN (OLD.agent_id IS NOT NULL) EXECUTE FUNCTION datahub_notify_agent_page('agent_id');
`)
}
