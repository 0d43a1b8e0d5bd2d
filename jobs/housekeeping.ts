import type { Sequelize } from 'sequelize'
import type { JobDeps } from './types.ts'
import { LOCKS, withAdvisoryLock, type Locked } from './lock.ts'

/** Rate-limit windows are at most an hour long; a day-old counter is certainly stale. */
export const RATE_LIMIT_STALE_SECONDS = 24 * 3600

export interface HousekeepingResult {
  ussdSessions: number
  rateLimits: number
  jobRuns: number
}

/** Deletes USSD sessions past their idle expiry, stale rate-limit counters and idle named queues; one instance at a time. */
export async function housekeeping({ services, log }: JobDeps): Promise<Locked<HousekeepingResult>> {
  return withAdvisoryLock(services.deps.sequelize, LOCKS.housekeeping, async () => {
    const result = {
      ussdSessions: await services.ussd.sessions.purgeExpired(),
      rateLimits: await services.rateLimit.purgeOlderThan(RATE_LIMIT_STALE_SECONDS),
      jobRuns: await purgeJobRuns(services.deps.sequelize)
    }
    await services.queue.dropIdleQueues()
    if (result.ussdSessions || result.rateLimits || result.jobRuns) log.info(result, 'housekeeping run')
    return result
  })
}

/** Tick records older than a week can no longer be reached late by anyone. */
async function purgeJobRuns(sequelize: Sequelize): Promise<number> {
  const [, meta] = await sequelize.query("DELETE FROM job_runs WHERE tick < now() - interval '7 days'")
  return (meta as { rowCount?: number }).rowCount ?? 0
}
