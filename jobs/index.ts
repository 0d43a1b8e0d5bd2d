import cron, { type ScheduledTask } from 'node-cron'
import { housekeeping } from './housekeeping.ts'
import { reconcilePayments } from './reconcile.ts'
import type { JobDeps } from './types.ts'

export const SCHEDULES = {
  reconcile: '* * * * *',
  housekeeping: '*/5 * * * *',
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

export type StopJobs = (() => Promise<void>) & { tasks: ScheduledTask[] }

/** Schedules every job on this instance (each run still takes its advisory lock); returns a stopper (with the tasks). */
export function startJobs(deps: JobDeps): StopJobs {
  // node-cron's own notices (missed or overlapping ticks) go to our logger, not the console.
  const cronLog = deps.log.child({ component: 'node-cron' })
  const logger = {
    info: (m: string) => cronLog.debug(m),
    warn: (m: string) => cronLog.warn(m),
    error: (m: string | Error, err?: Error) => cronLog.error({ err: err ?? m }, String(m)),
    debug: (m: string | Error) => cronLog.debug(String(m)),
  }
  const opts = { noOverlap: true, logger }
  const tasks: ScheduledTask[] = [
    cron.schedule(SCHEDULES.reconcile, () => runJob('reconcile', deps, reconcilePayments), { ...opts, name: 'reconcile-payments' }),
    cron.schedule(SCHEDULES.housekeeping, () => runJob('housekeeping', deps, housekeeping), { ...opts, name: 'housekeeping' }),
  ]
  deps.log.info({ jobs: tasks.map((t) => t.name) }, 'jobs scheduled')
  const stop = async () => {
    for (const t of tasks) {
      await t.stop()
      await t.destroy()
    }
  }
  return Object.assign(stop, { tasks })
}
