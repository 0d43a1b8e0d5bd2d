import type { Sequelize } from 'sequelize'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'

/** Sessions idle out after 3 minutes, a little longer than telcos keep a dial open. */
export const SESSION_IDLE_SECONDS = 180

export interface StoredSession<S> {
  sessionId: string
  phone: string
  state: S
  expired: boolean
}

const GET = 'SELECT phone, state, expires_at <= now() AS expired FROM ussd_sessions WHERE session_id = $1'
const SAVE = `INSERT INTO ussd_sessions (session_id, phone, state, updated_at, expires_at)
  VALUES ($1, $2, $3::jsonb, now(), now() + make_interval(secs => $4))
  ON CONFLICT (session_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now(), expires_at = EXCLUDED.expires_at`
// Neither waits for the WAL flush (ADR 0024). A claim is followed by the step it guards, whose
// synchronous commit flushes it too (the WAL is written in order), so a crash of PostgreSQL loses both
// or neither; a lost removal leaves a row that idles out and is purged like any other.
const REMOVE = `DELETE FROM ussd_sessions USING ${NO_FLUSH_WAIT} WHERE session_id = $1`
const CLAIM = `UPDATE ussd_sessions SET state = jsonb_set(state, '{claimed}', COALESCE(state->'claimed', '[]'::jsonb) || to_jsonb($2::text))
  FROM ${NO_FLUSH_WAIT}
  WHERE session_id = $1 AND NOT COALESCE(state->'claimed', '[]'::jsonb) ? $2::text RETURNING 1`

/**
 * USSD dial state in PostgreSQL (table ussd_sessions), keyed by the gateway's session id, so any app
 * instance can answer any hop. Callers must never put the PIN in `state`.
 */
export function createSessionStore(sequelize: Sequelize) {
  // Every hop reads and writes its state: named statements (ADR 0024).
  const run = preparedFor(sequelize)
  return {
    async get<S>(sessionId: string): Promise<StoredSession<S> | null> {
      const [row] = await run(GET, [sessionId])
      return row ? { sessionId, phone: row.phone, state: row.state as S, expired: row.expired } : null
    },
    async save<S>(sessionId: string, phone: string, state: S): Promise<void> {
      await run(SAVE, [sessionId, phone, JSON.stringify(state), SESSION_IDLE_SECONDS])
    },
    /**
     * Marks a one-time step (placing the order) as taken, once: a gateway retry arriving while the
     * first request is still working finds it taken and does not act twice.
     */
    async claim(sessionId: string, step: string): Promise<boolean> {
      return (await run(CLAIM, [sessionId, step])).length > 0
    },
    async remove(sessionId: string): Promise<void> {
      await run(REMOVE, [sessionId])
    },
    /** Housekeeping (jobs): drops sessions idle past their expiry; returns how many. */
    async purgeExpired(): Promise<number> {
      const [, meta] = await sequelize.query('DELETE FROM ussd_sessions WHERE expires_at <= now()')
      return (meta as { rowCount?: number })?.rowCount ?? 0
    }
  }
}
