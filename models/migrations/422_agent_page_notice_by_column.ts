import type { MigrationFn } from '../migrate.ts'

// The agent's page notice (migration 340) read the agent's id from the row as JSON (`to_jsonb(NEW) ->> 'agent_id'`,
// twice per row, in a PERFORM ... WHERE that runs as a query of its own): about 60 us per call on an orders row,
// measured against the same notices with the column read directly (12 us). A wallet order calls it twice (its order's
// INSERT and its wallets row's UPDATE), and every later update of an agent's order once more. Every table but agents
// names the agent in `agent_id`: for those the function reads the column itself, and the notice is an expression
// evaluated in place. Other columns (agents' `id`) take the old way. The same notices, for the same rows (ADR 0083).
const BY_NAME = `
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('datahub_changes', 'page:agent:' || (to_jsonb(OLD) ->> TG_ARGV[0])) WHERE (to_jsonb(OLD) ->> TG_ARGV[0]) IS NOT NULL;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('datahub_changes', 'page:agent:' || (to_jsonb(NEW) ->> TG_ARGV[0])) WHERE (to_jsonb(NEW) ->> TG_ARGV[0]) IS NOT NULL;
  END IF;
  RETURN NULL;`

export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE OR REPLACE FUNCTION datahub_notify_agent_page() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_ARGV[0] = 'agent_id' THEN
    -- An update may move a row from one agent to another: both pages change.
    IF TG_OP <> 'INSERT' THEN
      IF OLD.agent_id IS NOT NULL THEN
        PERFORM pg_notify('datahub_changes', 'page:agent:' || OLD.agent_id);
      END IF;
    END IF;
    IF TG_OP <> 'DELETE' THEN
      IF NEW.agent_id IS NOT NULL THEN
        PERFORM pg_notify('datahub_changes', 'page:agent:' || NEW.agent_id);
      END IF;
    END IF;
    RETURN NULL;
  END IF;${BY_NAME}
END $$;
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE OR REPLACE FUNCTION datahub_notify_agent_page() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN${BY_NAME}
END $$;
`)
}
