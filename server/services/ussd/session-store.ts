import type { Sequelize } from 'sequelize'
import { createSessionQueries } from './queries.ts'

/** Sessions idle out after 3 minutes, a little longer than telcos keep a dial open. */
export const SESSION_IDLE_SECONDS = 180

export interface StoredSession<S> {
  sessionId: string
  phone: string
  state: S
  expired: boolean
}

/**
 * USSD dial state in PostgreSQL (table ussd_sessions), keyed by the gateway's session id, so any app
 * instance can answer any hop. Callers must never put the PIN in `state`.
 */
export function createSessionStore(sequelize: Sequelize) {
  const q = createSessionQueries(sequelize)
  return {
    async get<S>(sessionId: string): Promise<StoredSession<S> | null> {
      const row = await q.get(sessionId)
      return row ? { sessionId, phone: row.phone, state: row.state as S, expired: row.expired } : null
    },
    async save<S>(sessionId: string, phone: string, state: S): Promise<void> {
      await q.save(sessionId, phone, JSON.stringify(state), SESSION_IDLE_SECONDS)
    },
    /**
     * Marks a one-time step (placing the order) as taken, once: a gateway retry arriving while the
     * first request is still working finds it taken and does not act twice.
     */
    async claim(sessionId: string, step: string): Promise<boolean> {
      return q.claim(sessionId, step)
    },
    async remove(sessionId: string): Promise<void> {
      await q.remove(sessionId)
    },
    /** Housekeeping (jobs): drops sessions idle past their expiry; returns how many. */
    async purgeExpired(): Promise<number> {
      return q.purgeExpired()
    }
  }
}
