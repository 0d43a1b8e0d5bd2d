import type { MigrationFn } from '../migrate.ts'

// ADR 0054: the short export leaves out its probe of order_exports per candidate while no prune is
// pending. A row here says "candidates may still name exported orders": the export writes its stamp
// in its transaction and the prune job deletes it with that export's candidates, in one transaction.
// Any other writer of order_exports (a repair by hand, a test factory, code yet to come) is caught
// by the statement trigger below, once per statement, and leaves '-infinity', which the next prune
// job clears after taking out every exported candidate. The export itself sets
// `datahub.exporting` for its transaction, so its own marking writes nothing here.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE order_export_prunes (
  stamp TIMESTAMPTZ PRIMARY KEY
);
INSERT INTO order_export_prunes (stamp)
  SELECT '-infinity' WHERE EXISTS (SELECT 1 FROM order_export_candidates c JOIN order_exports x ON x.order_id = c.order_id);

CREATE FUNCTION order_exports_written_elsewhere() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('datahub.exporting', true), '') <> 'on' THEN
    -- DO UPDATE, not DO NOTHING: it locks the marker, so a prune deleting it waits for this
    -- transaction and its next statement sees these rows.
    INSERT INTO order_export_prunes (stamp) VALUES ('-infinity') ON CONFLICT (stamp) DO UPDATE SET stamp = excluded.stamp;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER order_exports_written_elsewhere AFTER INSERT OR UPDATE ON order_exports
  FOR EACH STATEMENT EXECUTE FUNCTION order_exports_written_elsewhere();
`)
}
