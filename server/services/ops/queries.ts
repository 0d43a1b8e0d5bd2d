import { QueryTypes, type Sequelize } from 'sequelize'

// Every statement of ops (the figures /metrics reads, the pool watch's probe), with counts as numbers.

export interface QueueCounts {
  waiting: number
  running: number
  failed: number
}

export function createOpsQueries(sequelize: Sequelize) {
  return {
    async paymentsByStatus(): Promise<{ status: string; count: number }[]> {
      const rows = await sequelize.query<{ status: string; count: string }>('SELECT status, count(*) AS count FROM payments GROUP BY status', {
        type: QueryTypes.SELECT
      })
      return rows.map((r) => ({ status: r.status, count: Number(r.count) }))
    },

    /** Whether graphile-worker's schema has been made (the queue runs its own migrations when it starts). */
    async queueInstalled(): Promise<boolean> {
      const [t] = await sequelize.query<{ t: string | null }>("SELECT to_regclass('graphile_worker._private_jobs')::text AS t", { type: QueryTypes.SELECT })
      return !!t?.t
    },

    /** A locked job is running (its attempt was counted when it was taken), so one on its last attempt is not failed until it is let go. */
    async queueCounts(): Promise<QueueCounts> {
      const [r] = await sequelize.query<{ waiting: string; running: string; failed: string }>(
        `SELECT count(*) FILTER (WHERE locked_at IS NULL AND attempts < max_attempts) AS waiting,
                count(*) FILTER (WHERE locked_at IS NOT NULL) AS running,
                count(*) FILTER (WHERE locked_at IS NULL AND attempts >= max_attempts) AS failed
           FROM graphile_worker._private_jobs`,
        { type: QueryTypes.SELECT }
      )
      return { waiting: Number(r!.waiting), running: Number(r!.running), failed: Number(r!.failed) }
    },

    /** The cheapest round trip: whether the pool can reach the database now. */
    async probe(): Promise<void> {
      await sequelize.query('SELECT 1')
    }
  }
}
