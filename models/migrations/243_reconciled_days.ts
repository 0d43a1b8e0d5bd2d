import type { MigrationFn } from '../migrate.ts'

// The daily reconciliation ran only at its 01:10 tick, so a day with no instance up then was never
// looked at. Each day reconciled is now recorded, and start-up and every tick reconcile the days
// missing since (ADR 0031). Days already reconciled before this table existed count as done.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`
CREATE TABLE reconciled_days (
  day DATE PRIMARY KEY,
  gateway TEXT NOT NULL,
  run_id INTEGER NOT NULL,
  reconciled_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
INSERT INTO reconciled_days (day, gateway, run_id, reconciled_at)
SELECT DISTINCT ON (day) day, gateway, id, COALESCE(finished_at, started_at) FROM reconciliation_runs
 WHERE status = 'DONE' ORDER BY day, finished_at DESC NULLS LAST;
`)
}
