import type { MigrationFn } from '../migrate.ts'

// The audit trail is append-only in the database too, not only in the API: an UPDATE or DELETE of a
// row fails, whoever sends it. The one change allowed is the user link going to NULL when that user
// is deleted (the foreign key's ON DELETE SET NULL). TRUNCATE stays possible for test resets and
// throw-away benchmark data; a future retention job must say so here explicitly.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE FUNCTION audit_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'audit logs cannot be deleted' USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF (NEW.id, NEW.timestamp, NEW.action, NEW.resource, NEW.resource_id, NEW.severity, NEW.ip_address, NEW.details)
       IS DISTINCT FROM (OLD.id, OLD.timestamp, OLD.action, OLD.resource, OLD.resource_id, OLD.severity, OLD.ip_address, OLD.details)
     OR (NEW.user_id IS NOT NULL AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
    RAISE EXCEPTION 'audit logs cannot be edited' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $fn$;
CREATE TRIGGER audit_logs_no_update BEFORE UPDATE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
CREATE TRIGGER audit_logs_no_delete BEFORE DELETE ON audit_logs FOR EACH ROW EXECUTE FUNCTION audit_logs_append_only();
`)
}
