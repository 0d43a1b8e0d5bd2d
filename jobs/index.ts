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

/** Schedules every job on this instance (each run still takes its advisory lock); returns a stopper. */
export function startJobs(deps: JobDeps): () => Promise<void> {
  const tasks: ScheduledTask[] = [
    cron.schedule(SCHEDULES.reconcile, () => runJob('reconcile', deps, reconcilePayments), { name: 'reconcile-payments', noOverlap: true }),
    cron.schedule(SCHEDULES.housekeeping, () => runJob('housekeeping', deps, housekeeping), { name: 'housekeeping', noOverlap: true }),
  ]
  deps.log.info({ jobs: tasks.map((t) => t.name) }, 'jobs scheduled')
  return async () => {
    for (const t of tasks) {
      await t.stop()
      await t.destroy()
    }
  }
}
