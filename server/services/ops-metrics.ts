import { QueryTypes, type Sequelize } from 'sequelize'

/** Figures /metrics reads from the database at scrape time (shared by every instance, so any one answers). */
export function createOpsMetrics({ sequelize }: { sequelize: Sequelize }) {
  return {
    async paymentsByStatus(): Promise<{ status: string; count: number }[]> {
      const rows = await sequelize.query<{ status: string; count: string }>(
        'SELECT status, count(*) AS count FROM payments GROUP BY status',
        { type: QueryTypes.SELECT },
      )
      return rows.map((r) => ({ status: r.status, count: Number(r.count) }))
    },
    /** The durable job queue (graphile-worker), when its schema is there: waiting jobs and jobs that gave up. */
    async queue(): Promise<{ waiting: number; failed: number } | undefined> {
      const [t] = await sequelize.query<{ t: string | null }>("SELECT to_regclass('graphile_worker._private_jobs')::text AS t", { type: QueryTypes.SELECT })
      if (!t?.t) return undefined
      const [r] = await sequelize.query<{ waiting: string; failed: string }>(
        `SELECT count(*) FILTER (WHERE attempts < max_attempts) AS waiting,
                count(*) FILTER (WHERE attempts >= max_attempts) AS failed
           FROM graphile_worker._private_jobs`,
        { type: QueryTypes.SELECT },
      )
      return { waiting: Number(r!.waiting), failed: Number(r!.failed) }
    },
  }
}
export type OpsMetrics = ReturnType<typeof createOpsMetrics>
