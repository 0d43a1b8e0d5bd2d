import type { MigrationFn } from '../migrate.ts'

// The signed-in session and its user are kept in memory on every instance between loads (ADR 0048, amendment).
// Triggers tell every instance at commit, on the channel of the page caches (migration 250), whoever wrote:
// 'signed-in:session:<sid>' when a session row changes or goes (a save, a touch, sign-out, sessions ended, the
// sweep of expired rows), 'signed-in:user:<user id>' when a user row or that user's agent row changes (role,
// sessions' epoch, approval, an agent row added or moved), 'signed-in:all' on a TRUNCATE. A new session row needs
// no notice: nothing can be kept for it yet.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE FUNCTION datahub_notify_signed_in_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'signed-in:session:' || OLD.sid);
  RETURN NULL;
END $$;

CREATE FUNCTION datahub_notify_signed_in_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'signed-in:user:' || OLD.id);
  RETURN NULL;
END $$;

-- An agent row may be added to a user, or move from one user to another: each user it names changes.
CREATE FUNCTION datahub_notify_signed_in_agent() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.user_id IS NOT NULL THEN
    PERFORM pg_notify('datahub_changes', 'signed-in:user:' || OLD.user_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.user_id IS NOT NULL THEN
    PERFORM pg_notify('datahub_changes', 'signed-in:user:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;

CREATE FUNCTION datahub_notify_signed_in_all() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('datahub_changes', 'signed-in:all');
  RETURN NULL;
END $$;

CREATE TRIGGER session_signed_in_notify AFTER UPDATE OR DELETE ON session
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_signed_in_session();
-- A new user has nothing kept; their agent row, once added, changes what the user is.
CREATE TRIGGER users_signed_in_notify AFTER UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_signed_in_user();
CREATE TRIGGER agents_signed_in_notify AFTER INSERT OR UPDATE OR DELETE ON agents
  FOR EACH ROW EXECUTE FUNCTION datahub_notify_signed_in_agent();
`)
  for (const table of ['session', 'users', 'agents']) {
    await sql(`CREATE TRIGGER ${table}_truncate_signed_in_notify AFTER TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION datahub_notify_signed_in_all()`)
  }
}
