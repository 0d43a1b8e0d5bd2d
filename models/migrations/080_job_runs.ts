import type { MigrationFn } from '../migrate.ts'

// One row per scheduled job and tick: the fence that makes a tick run once across instances.
export const up: MigrationFn = async ({ context: sql }) => {
  await sql(`CREATE TABLE job_runs (
    job TEXT NOT NULL,
    tick TIMESTAMPTZ NOT NULL,
    instance TEXT,
    -- later arrivals for the same tick (skipped): should stay 0, since the queue enqueues a tick once
    duplicates INT NOT NULL DEFAULT 0,
    started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (job, tick)
  )`)
}
