import type pg from 'pg'
import type { ConnectionStates } from '../../lib/connection-states.ts'
import type { Logger } from '../../lib/logger.ts'
import { listenForever } from '../../lib/pg-listener.ts'
import { createWorkerPoolQueries, LIVENESS_PREFIX as PREFIX } from './queries.ts'

/** A job locked this recently may belong to a pool whose liveness connection is still opening. */
const LOCK_GRACE_SECONDS = 10
/** After an outage every instance reconnects within this (backoff tops out at 5 s): only then judge others. */
const SETTLE_MS = 8000
const REAP_EVERY_MS = 2000

/**
 * Who holds a job. graphile-worker 0.18 has no heartbeat: a job locked by a process that died, or
 * by one whose failure could not be written, stays locked for 4 hours. Each worker pool therefore
 * keeps a connection named after its id; PostgreSQL drops it the moment the process dies (kill -9
 * included), so a lock whose pool has no such connection is a dead one, and any instance releases it.
 * When this instance's own connection comes back after an outage, it releases at once the jobs its
 * pools still hold but no longer run (their completion or failure was lost with the connection).
 * A job taken back runs again even if it was on its last attempt: it was cut off, it did not fail
 * (a batch job whose key moved on is marked last-attempt by graphile-worker while it runs, a
 * scheduled tick has one attempt; either would otherwise wait for the stale-order sweep or never run).
 */
export function createLiveness(deps: { pool: pg.Pool; config: pg.ClientConfig; states: ConnectionStates; log: Logger; running: () => string[] }) {
  const { log } = deps
  const queries = createWorkerPoolQueries(deps.pool)
  const mine = new Set<string>()
  let current: string | undefined
  let stopListener: (() => Promise<void>) | undefined
  let upSince = 0
  let timer: NodeJS.Timeout | undefined
  let reaping = false

  async function releaseOwn(): Promise<void> {
    // Locked a moment ago may be a job a worker is just starting (its start event not seen yet).
    const n = await queries.releaseOwn([...mine], deps.running())
    if (n > 0) log.warn({ jobs: n }, 'job queue: released jobs whose completion or failure was lost with the connection')
  }

  async function reapDead(): Promise<void> {
    const n = await queries.reapDead(LOCK_GRACE_SECONDS)
    if (n > 0) log.warn({ jobs: n }, 'job queue: took back jobs held by a worker that is gone')
  }

  const tick = () => {
    if (reaping || !upSince || Date.now() - upSince < SETTLE_MS) return
    reaping = true
    reapDead()
      .catch(() => {})
      .finally(() => (reaping = false))
  }

  return {
    /** A new worker pool of this instance: name a connection after it (the previous pool's locks are released). */
    async attach(poolId: string): Promise<void> {
      mine.add(poolId)
      await stopListener?.()
      current = poolId
      stopListener = await listenForever({
        name: 'queue-liveness',
        applicationName: `${PREFIX}${poolId}`,
        config: deps.config,
        channels: [],
        onNotify: () => {},
        onGap: () => (upSince = 0),
        states: deps.states,
        onUp: () => {
          upSince = Date.now()
          releaseOwn().catch((err) => log.warn({ err: { message: err.message } }, 'job queue: could not release own jobs yet'))
        }
      })
      timer ??= setInterval(tick, REAP_EVERY_MS)
      timer.unref()
    },
    current: () => current,
    async stop(): Promise<void> {
      clearInterval(timer)
      timer = undefined
      await stopListener?.()
      stopListener = undefined
    }
  }
}
