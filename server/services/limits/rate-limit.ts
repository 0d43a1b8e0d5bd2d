import type { Sequelize } from 'sequelize'
import { createLimitQueries } from './queries.ts'

/**
 * Counts one hit in `key`'s fixed window of `windowSeconds` (a window that has ended starts again at
 * one): the count so far and the whole seconds until the window ends (at least 1).
 */
export async function hitWindow(sequelize: Sequelize, key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }> {
  const { count, reset } = await createLimitQueries(sequelize).hitWindow(key, windowSeconds)
  return { count, resetSeconds: Math.max(1, reset) }
}

/** The fixed-window counters' housekeeping (the windows themselves are counted by `hitWindow`). */
export function createRateLimitService({ sequelize }: { sequelize: Sequelize }) {
  const queries = createLimitQueries(sequelize)
  return {
    /** Housekeeping for the jobs: drops windows that ended long ago. */
    purgeOlderThan: (seconds: number): Promise<number> => queries.purge(seconds, Date.now())
  }
}
