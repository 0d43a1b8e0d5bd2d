import pg from 'pg'
import { backoffMs, type ConnectionStates } from '../../lib/connection-states.ts'
import { isDbUnavailable } from '../../lib/db-unavailable.ts'

export const QUEUE_POOL = 'queue-pool'

/**
 * The queue's pool, handed to graphile-worker. When the database is unreachable, a connection asked
 * for with a promise (how graphile-worker takes jobs and records completions and failures) waits
 * for it to come back instead of failing: a failure recorded late still releases the job, where
 * one that errors leaves it locked by a live worker. Callback callers (graphile-worker's LISTEN,
 * which has its own backoff, and `pool.query`) fail at once as before. `giveUp` ends the wait when
 * the queue stops.
 */
export function createPatientPool(config: pg.PoolConfig, states: ConnectionStates, giveUp: () => boolean): pg.Pool {
  const pool = new pg.Pool(config)
  const connect = pool.connect.bind(pool) as (cb?: (...args: any[]) => void) => any
  ;(pool as any).connect = (cb?: (...args: any[]) => void) => {
    if (cb) return connect(cb)
    return (async () => {
      for (let attempt = 1; ; attempt++) {
        try {
          const client: pg.PoolClient = await connect()
          states.up(QUEUE_POOL)
          return client
        } catch (err) {
          if (!isDbUnavailable(err) || giveUp()) throw err
          states.down(QUEUE_POOL, err)
          await new Promise((r) => setTimeout(r, backoffMs(attempt)))
        }
      }
    })()
  }
  states.track(QUEUE_POOL)
  return pool
}
