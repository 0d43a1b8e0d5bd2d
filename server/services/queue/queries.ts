import type pg from 'pg'
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'

// Every statement of the queue over graphile-worker's tables and functions, with counts as numbers:
// adding jobs on the app's pool (in the caller's transaction), the workers' own pool's probes and
// the taking back of jobs whose worker is gone.

/** graphile-worker marks a job with its worker pool's id; ours also names a connection `dhq:<id>`. */
export const LIVENESS_PREFIX = 'dhq:'

/** One job as add_job takes it ($1..$8). */
export interface JobSpec {
  task: string
  payload: string
  queueName: string | null
  runAt: string | null
  maxAttempts: number | null
  jobKey: string | null
  priority: number | null
  jobKeyMode: string | null
}

/** Jobs by state: due now, due later, held by a worker, given up. */
export type QueueDepth = Record<'ready' | 'scheduled' | 'locked' | 'failed', number>

export function createQueueQueries(sequelize: Sequelize) {
  const prepared = preparedFor(sequelize)
  return {
    /** The job's id, or null when add_job added nothing. */
    async addJob(j: JobSpec, transaction?: Transaction): Promise<string | null> {
      // Every paid order queues its delivery here: a named statement (ADR 0024).
      const [row] = await prepared<{ id: string }>(
        `SELECT (graphile_worker.add_job($1, $2::json, queue_name => $3, run_at => $4::timestamptz,
                  max_attempts => $5, job_key => $6, priority => $7, job_key_mode => $8)).id::text AS id`,
        [j.task, j.payload, j.queueName, j.runAt, j.maxAttempts, j.jobKey, j.priority, j.jobKeyMode],
        transaction
      )
      return row?.id ?? null
    },

    /** Many jobs in one statement (add_jobs), in the order given: how many were added. */
    async addJobs(jobs: { task: string; payload: string; jobKey: string | null; maxAttempts: number | null }[], transaction?: Transaction): Promise<number> {
      const rows = await sequelize.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM graphile_worker.add_jobs(ARRAY(
           SELECT (task, payload::json, NULL, NULL, max_attempts, job_key, NULL, NULL)::graphile_worker.job_spec
             FROM unnest(ARRAY[:task]::text[], ARRAY[:payload]::text[], ARRAY[:key]::text[], ARRAY[:max]::int[]) WITH ORDINALITY AS j(task, payload, job_key, max_attempts, i)
            ORDER BY i))`,
        {
          replacements: {
            task: jobs.map((j) => j.task),
            payload: jobs.map((j) => j.payload),
            key: jobs.map((j) => j.jobKey),
            max: jobs.map((j) => j.maxAttempts)
          },
          type: QueryTypes.SELECT,
          transaction
        }
      )
      return rows[0]?.n ?? 0
    },

    async depth(): Promise<QueueDepth> {
      const [row] = await sequelize.query<{ ready: string; scheduled: string; locked: string; failed: string }>(
        `SELECT count(*) FILTER (WHERE locked_at IS NULL AND run_at <= now() AND attempts < max_attempts) AS ready,
                count(*) FILTER (WHERE locked_at IS NULL AND run_at > now() AND attempts < max_attempts) AS scheduled,
                count(*) FILTER (WHERE locked_at IS NOT NULL) AS locked,
                count(*) FILTER (WHERE locked_at IS NULL AND attempts >= max_attempts) AS failed
           FROM graphile_worker.jobs`,
        { type: QueryTypes.SELECT }
      )
      return { ready: Number(row!.ready), scheduled: Number(row!.scheduled), locked: Number(row!.locked), failed: Number(row!.failed) }
    }
  }
}

/** The statements on the workers' own pool (pg), which graphile-worker also uses. */
export function createWorkerPoolQueries(pool: pg.Pool) {
  return {
    /** The cheapest round trip: throws when the database does not answer. */
    async probe(): Promise<void> {
      await pool.query('SELECT 1')
    },

    /**
     * Releases the jobs (and their named queues) locked by these pools of this instance but not running
     * here, locked over a second ago: how many jobs.
     */
    async releaseOwn(poolIds: string[], running: string[]): Promise<number> {
      const { rows } = await pool.query<{ n: string }>(
        `WITH j AS (
         UPDATE graphile_worker._private_jobs SET locked_by = NULL, locked_at = NULL, attempts = least(attempts, max_attempts - 1)
          WHERE locked_by = ANY($1::text[]) AND NOT (id = ANY($2::bigint[])) AND locked_at < now() - interval '1 second'
          RETURNING job_queue_id),
       q AS (
         UPDATE graphile_worker._private_job_queues SET locked_by = NULL, locked_at = NULL
          WHERE id IN (SELECT job_queue_id FROM j) AND locked_by = ANY($1::text[]))
       SELECT count(*)::text AS n FROM j`,
        [poolIds, running]
      )
      return Number(rows[0]!.n)
    },

    /** Releases jobs and queues locked over `graceSeconds` ago by a pool with no liveness connection: how many jobs. */
    async reapDead(graceSeconds: number): Promise<number> {
      const { rows } = await pool.query<{ n: string }>(
        `WITH live AS (SELECT substr(application_name, ${LIVENESS_PREFIX.length + 1}) AS id FROM pg_stat_activity WHERE application_name LIKE '${LIVENESS_PREFIX}%'),
       j AS (
         UPDATE graphile_worker._private_jobs SET locked_by = NULL, locked_at = NULL, attempts = least(attempts, max_attempts - 1)
          WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1) AND locked_by NOT IN (SELECT id FROM live)
          RETURNING id),
       q AS (
         UPDATE graphile_worker._private_job_queues SET locked_by = NULL, locked_at = NULL
          WHERE locked_by IS NOT NULL AND locked_at < now() - make_interval(secs => $1) AND locked_by NOT IN (SELECT id FROM live))
       SELECT count(*)::text AS n FROM j`,
        [graceSeconds]
      )
      return Number(rows[0]!.n)
    }
  }
}
