import type { MigrationFn } from '../migrate.ts'

// Signed-in pages' data is kept in memory per agent (the dashboard) and once for every admin (the
// overview). Those figures come from rows many services, jobs and operators write, so triggers tell
// every instance at commit, on the channel of the visitors' page cache (migration 250), whoever wrote.
// Payloads: 'page:agent:<agent id>', 'page:agents' (every agent's), 'page:overview', 'page:all'.
// Identical payloads within one transaction reach listeners once, so a bulk statement costs one notice per agent.
const AGENT_ROWS: [table: string, agentColumn: string][] = [
  ['orders', 'agent_id'],
  ['wallets', 'agent_id'],
  ['wallet_entries', 'agent_id'],
  ['agents', 'id']
]
const USER_ROWS: [table: string, userColumn: string][] = [
  ['admin_message_recipients', 'user_id'],
  ['users', 'id']
]
/** What the admin overview counts and sums (reports/admin-stats, payments/attention, wallet liability). */
const OVERVIEW_TABLES = ['orders', 'order_exports', 'users', 'agents', 'payments', 'payment_issues', 'refunds', 'gateway_events', 'wallets']

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE FUNCTION datahub_notify_agent_page() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- An update may move a row from one agent to another: both pages change.
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('datahub_changes', 'page:agent:' || (to_jsonb(OLD) ->> TG_ARGV[0])) WHERE (to_jsonb(OLD) ->> TG_ARGV[0]) IS NOT NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('datahub_changes', 'page:agent:' || (to_jsonb(NEW) ->> TG_ARGV[0])) WHERE (to_jsonb(NEW) ->> TG_ARGV[0]) IS NOT NULL;
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION datahub_notify_user_page() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r RECORD;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  PERFORM pg_notify('datahub_changes', 'page:agent:' || a.id) FROM agents a WHERE a.user_id = (to_jsonb(r) ->> TG_ARGV[0])::int;
  RETURN NULL;
END $$;

CREATE FUNCTION datahub_notify_page_statement() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'page:' || TG_ARGV[0]);
  RETURN NULL;
END $$;
`)
  for (const [table, column] of AGENT_ROWS) {
    await sql(`CREATE TRIGGER ${table}_agent_page_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_agent_page('${column}')`)
  }
  for (const [table, column] of USER_ROWS) {
    await sql(`CREATE TRIGGER ${table}_agent_page_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_user_page('${column}')`)
  }
  // A message's text is shown to all its recipients; an export marks many agents' orders at once (rare, an admin's act).
  for (const table of ['admin_messages', 'order_exports']) {
    await sql(`CREATE TRIGGER ${table}_agents_page_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_page_statement('agents')`)
  }
  for (const table of OVERVIEW_TABLES) {
    await sql(`CREATE TRIGGER ${table}_overview_page_notify AFTER INSERT OR UPDATE OR DELETE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_page_statement('overview')`)
  }
  const everyTable = [...new Set([...AGENT_ROWS.map(([t]) => t), ...USER_ROWS.map(([t]) => t), 'admin_messages', ...OVERVIEW_TABLES])]
  for (const table of everyTable) {
    await sql(`CREATE TRIGGER ${table}_truncate_page_notify AFTER TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_page_statement('all')`)
  }
}
