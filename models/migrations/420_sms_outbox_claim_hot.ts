import type { MigrationFn } from '../migrate.ts'

// An update is HOT (no new entry in any index) only when no column an index names, in its key or its condition,
// changes value, and the new version fits on the row's page. The minute sweep's index of pending texts named
// `status` in its condition, so each of a text's moves (QUEUED -> SENDING -> SENT) wrote an entry in every index of
// sms_outbox. `finished` is computed by PostgreSQL from the status and is the only column the sweep's index now names:
// the claim (QUEUED -> SENDING) and a retry's return to QUEUED leave it false, so they can be HOT; SENT and FAILED
// set it, leaving the index as before. Every writer keeps writing the status alone (ADR 0080). Adding a stored column
// rewrites the table once, under its exclusive lock.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
ALTER TABLE sms_outbox ADD COLUMN finished BOOLEAN GENERATED ALWAYS AS (status IN ('SENT', 'FAILED')) STORED;
DROP INDEX IF EXISTS sms_outbox_queued_idx;
CREATE INDEX sms_outbox_pending_idx ON sms_outbox (created_at) WHERE NOT finished;
`)
}

export const down: MigrationFn = async ({ context: sql }) => {
  await sql(`
DROP INDEX IF EXISTS sms_outbox_pending_idx;
CREATE INDEX sms_outbox_queued_idx ON sms_outbox (created_at) WHERE status IN ('QUEUED','SENDING');
ALTER TABLE sms_outbox DROP COLUMN finished;
`)
}
