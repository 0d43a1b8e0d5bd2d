import type { Sequelize } from 'sequelize'
import { createOpsQueries, type QueueCounts } from './queries.ts'

/** Figures /metrics reads from the database at scrape time (shared by every instance, so any one answers). */
export function createOpsMetrics({ sequelize }: { sequelize: Sequelize }) {
  const queries = createOpsQueries(sequelize)
  return {
    paymentsByStatus: queries.paymentsByStatus,
    /**
     * The durable job queue (graphile-worker), when its schema is there: jobs waiting to run, jobs a
     * worker holds now, and jobs that gave up.
     */
    async queue(): Promise<QueueCounts | undefined> {
      if (!(await queries.queueInstalled())) return undefined
      return queries.queueCounts()
    }
  }
}
export type OpsMetrics = ReturnType<typeof createOpsMetrics>
