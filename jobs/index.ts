import type { Queue } from '../server/services/queue/index.ts'
import { deliverySync } from './delivery.ts'
import { housekeeping } from './housekeeping.ts'
import { reconcilePayments } from './reconcile.ts'
import { RECONCILE_CATCH_UP_TASK, reconcileMissedDays } from './reconcile-daily.ts'
import { claimTick } from './ticks.ts'
import type { JobDeps } from './types.ts'

export const SCHEDULES = {
  reconcile: '* * * * *',
  housekeeping: '*/5 * * * *',
  deliverySync: '* * * * *',
  // 01:10 UTC: yesterday's transactions are all at the gateway by then; days missed before it too.
  reconcileDaily: '10 1 * * *',
  // 02:20 UTC, once a day: agents whose delivered sales passed a tier's threshold move up (ADR 0041).
  tierPromotions: '20 2 * * *'
} as const

/** A failing run is logged and the next tick tries again; nothing a job throws reaches the process. */
export async function runJob(name: string, deps: JobDeps, fn: (deps: JobDeps) => Promise<unknown>): Promise<void> {
  const log = deps.log.child({ job: name })
  try {
    await fn({ ...deps, log })
  } catch (err) {
    log.error({ err }, 'job run failed; retrying at the next tick')
  }
}

const SCHEDULED: Record<keyof typeof SCHEDULES, (deps: JobDeps) => Promise<unknown>> = {
  reconcile: reconcilePayments,
  housekeeping,
  deliverySync,
  reconcileDaily: (deps) => reconcileMissedDays(deps),
  tierPromotions: (deps) => deps.services.tiers.promoteDue()
}

/**
 * The scheduled jobs run on the job queue's crontab (ADR 0011): graphile-worker enqueues each tick
 * once for the whole cluster, and `claimTick` records (job, tick) in job_runs so a tick that still
 * reached a worker twice (a late instance, a retried job) runs once. A failed run is not retried:
 * the next tick does the same work.
 */
export function registerScheduledJobs(queue: Queue, deps: JobDeps): void {
  for (const [name, fn] of Object.entries(SCHEDULED)) {
    queue.register<{ _cron?: { ts: string } }>(name, async (payload, job) => {
      const tick = payload?._cron?.ts
      if (tick && !(await claimTick(deps.services.deps.sequelize, name, tick))) {
        job.log.debug({ tick }, 'tick already run by another worker; skipped')
        return
      }
      await runJob(name, { ...deps, log: job.log }, fn)
    })
    queue.schedule({ pattern: SCHEDULES[name as keyof typeof SCHEDULES], task: name, queueName: `cron-${name}`, maxAttempts: 1 })
  }
  // A shop stopped over 01:10 never saw that tick: each start queues the catch-up, and a failure
  // (the gateway down) is retried by the queue rather than waiting for tomorrow's tick.
  queue.register(RECONCILE_CATCH_UP_TASK, async () => void (await reconcileMissedDays(deps)))
  queue
    .enqueue(RECONCILE_CATCH_UP_TASK, {}, { jobKey: 'reconcile-catch-up-after-start', queueName: 'cron-reconcileDaily' })
    .catch((err) => deps.log.warn({ err: (err as Error).message }, 'could not queue the start-up reconciliation catch-up'))
}
