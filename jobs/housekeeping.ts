import type { JobDeps } from './types.ts'
import { LOCKS, withAdvisoryLock, type Locked } from './lock.ts'

/** Rate-limit windows are at most an hour long; a day-old counter is certainly stale. */
export const RATE_LIMIT_STALE_SECONDS = 24 * 3600

export interface HousekeepingResult {
  ussdSessions: number
  rateLimits: number
}

/** Deletes USSD sessions past their idle expiry and stale rate-limit counters; one instance at a time. */
export async function housekeeping({ services, log }: JobDeps): Promise<Locked<HousekeepingResult>> {
  return withAdvisoryLock(services.deps.sequelize, LOCKS.housekeeping, async () => {
    const result = {
      ussdSessions: await services.ussd.sessions.purgeExpired(),
      rateLimits: await services.rateLimit.purgeOlderThan(RATE_LIMIT_STALE_SECONDS),
    }
    if (result.ussdSessions || result.rateLimits) log.info(result, 'housekeeping run')
    return result
  })
}
