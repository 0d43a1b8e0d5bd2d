import type { Sequelize } from 'sequelize'
import { createLimitQueries } from './queries.ts'

/** The fixed-window counters' housekeeping (the windows themselves are counted by `windowHitOf`, a CTE of the statement that needs one). */
export function createRateLimitService({ sequelize }: { sequelize: Sequelize }) {
  const queries = createLimitQueries(sequelize)
  return {
    /** Housekeeping for the jobs: drops windows that ended long ago. */
    purgeOlderThan: (seconds: number): Promise<number> => queries.purge(seconds, Date.now())
  }
}
