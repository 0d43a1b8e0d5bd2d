import { LOCKS, withAdvisoryLock } from './lock.ts'
import type { JobDeps } from './types.ts'

/** Queued once per start (keyed, so starts never pile up): the days missed while no instance ran. */
export const RECONCILE_CATCH_UP_TASK = 'reconcileCatchUp'

/**
 * Every complete day not yet reconciled (yesterday, and any the shop was down for, at most 31), oldest
 * first, each against the gateway's own list; results on the admin's attention page. One instance
 * at a time: the start-up job and the 01:10 tick may meet, and each day must be asked once.
 */
export async function reconcileMissedDays({ services, log }: JobDeps, now = new Date()) {
  return withAdvisoryLock(services.deps.sequelize, LOCKS.reconcileDaily, async () => {
    const days = await services.payments.daysToReconcile(now)
    if (days.length > 1) log.info({ days }, 'reconciling days missed while the shop was stopped')
    // Oldest first and stop at a failure: the days after it stay missing and the next run retries them.
    for (const day of days) await services.payments.reconcileDay(day, now)
    return days
  })
}
