import { QueryTypes, type Sequelize } from 'sequelize'

/** Figures /metrics reads from the database at scrape time (shared by every instance, so any one answers). */
export function createOpsMetrics({ sequelize }: { sequelize: Sequelize }) {
  return {
    async paymentsByStatus(): Promise<{ status: string; count: number }[]> {
      const rows = await sequelize.query<{ status: string; count: string }>('SELECT status, count(*) AS count FROM payments GROUP BY status', {
        type: QueryTypes.SELECT
      })
      return rows.map((r) => ({ status: r.status, count: Number(r.count) }))
    },
    /**
     * The durable job queue (graphile-worker), when its schema is there: jobs waiting to run, jobs a
     * worker holds now, and jobs that gave up. A locked job is running (its attempt was counted when
     * it was taken), so one on its last attempt is not failed until it is let go with an error.
     */
    async queue(): Promise<{ waiting: number; running: number; failed: number } | undefined> {
      const [t] = await sequelize.query<{ t: string | null }>("SELECT to_regclass('graphile_worker._private_jobs')::text AS t", { type: QueryTypes.SELECT })
      if (!t?.t) return undefined
      const [r] = await sequelize.query<{ waiting: string; running: string; failed: string }>(
        `SELECT count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts) AS waiting,
                count(*) FILTER (WHERE locked_at IS NOT NULL) AS running,
                count(*) FILTER (WHERE locked_at IS NULL AND attempts >= max_attempts) AS failed
           FROM graphile_worker._private_jobs`,
        { type: QueryTypes.SELECT }
      )
      return { waiting: Number(r!.waiting), running: Number(r!.running), failed: Number(r!.failed) }
    }
  }
}
export type OpsMetrics = ReturnType<typeof createOpsMetrics>
