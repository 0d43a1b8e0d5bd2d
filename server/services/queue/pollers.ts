import { isDbUnavailable } from '../../lib/db-unavailable.ts'
import type { Logger } from '../../lib/logger.ts'

/**
 * Work found in a table of its own instead of in job rows (paid orders awaiting delivery, ADR 0056).
 * `run` takes one batch and returns how many items it took; a started instance runs it again while it
 * finds some, at most `lanes` runs at once, when woken (`wake`, after the commit that made the work),
 * every `everyMs` (work another instance committed, or left by a process that died), and at start.
 * `drain` runs it too. `owner` is this instance's worker pool id, named by its liveness connection.
 */
export interface Poller {
  run: (owner: string | null) => Promise<number>
  everyMs: number
  lanes: number
  /**
   * The most one run takes. A run that took fewer found all that was waiting and not held by another
   * run: its lane stops there unless it was woken meanwhile, instead of running once more to find
   * nothing (work committed after that run's look comes with a wake of its own). Absent: a lane runs
   * until a run takes nothing.
   */
  batch?: number
}

/**
 * The pollers of one queue: each runs in lanes when woken, every `everyMs` and at start, while started.
 * `owner` names this instance's worker pool (its liveness connection); before it is named, no lane runs.
 */
export function createPollers(log: Logger, owner: () => string | null) {
  const pollers = new Map<string, { poller: Poller; active: Set<Promise<void>>; again: boolean; timer?: NodeJS.Timeout }>()
  let polling = false

  /** One lane: runs the poller while it finds work (or was woken meanwhile). */
  function kick(name: string): void {
    const p = pollers.get(name)
    if (!p || !polling) return
    if (p.active.size >= p.poller.lanes) {
      p.again = true
      return
    }
    const lane = (async () => {
      while (polling) {
        const named = owner()
        // The claim names the pool's liveness connection; before it is named there is no owner to name.
        if (!named) break
        p.again = false
        const n = await p.poller.run(named).catch((err) => {
          if (isDbUnavailable(err)) log.debug({ poller: name, err: { message: (err as Error).message } }, 'job queue: poller met the database down')
          else log.warn({ poller: name, err: { message: (err as Error).message } }, 'job queue: poller run failed; it runs again at its next tick')
          return 0
        })
        const foundAll = n === 0 || (p.poller.batch !== undefined && n < p.poller.batch)
        if (foundAll && !p.again) break
      }
    })().finally(() => p.active.delete(lane))
    p.active.add(lane)
  }

  return {
    add(name: string, poller: Poller): void {
      pollers.set(name, { poller, active: new Set(), again: false })
    },
    wake: kick,
    start(): void {
      polling = true
      for (const [name, p] of pollers) {
        p.timer = setInterval(() => kick(name), p.poller.everyMs)
        p.timer.unref()
        kick(name)
      }
    },
    /** Every poller run until it finds nothing, with no owner (nothing runs in another process): `drain`'s pass. */
    async runAll(): Promise<number> {
      let taken = 0
      for (const p of pollers.values()) for (let n = await p.poller.run(null); n > 0; n = await p.poller.run(null)) taken += n
      return taken
    },
    /** No lane starts after this; the running ones are awaited. */
    async stop(): Promise<void> {
      polling = false
      for (const p of pollers.values()) {
        clearInterval(p.timer)
        await Promise.all(p.active)
      }
    }
  }
}
