import { QueryTypes, type Sequelize } from 'sequelize'

/** Sessions idle out after 3 minutes, a little longer than telcos keep a dial open. */
export const SESSION_IDLE_SECONDS = 180

export interface StoredSession<S> {
  sessionId: string
  phone: string
  state: S
  expired: boolean
}

interface PgClient {
  query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: any[]; rowCount: number | null }>
}

/**
 * Runs one named (prepared) statement on a connection of Sequelize's own pool, without Sequelize's
 * per-query work (replacement formatting, logging hooks, result mapping): a USSD hop reads and
 * writes its state once each, so this is on every hop's path (issue 16 item 5). PostgreSQL parses
 * and plans each statement once per connection.
 */
export function preparedRunner(sequelize: Sequelize) {
  const cm = sequelize.connectionManager as unknown as { getConnection(o: { type: string }): Promise<PgClient>; releaseConnection(c: PgClient): Promise<void> | void }
  return async function run(name: string, text: string, values: unknown[]) {
    const client = await cm.getConnection({ type: 'write' })
    try {
      return await client.query({ name, text, values })
    } finally {
      await cm.releaseConnection(client)
    }
  }
}

const GET = 'SELECT phone, state, expires_at <= now() AS expired FROM ussd_sessions WHERE session_id = $1'
const SAVE = `INSERT INTO ussd_sessions (session_id, phone, state, updated_at, expires_at)
  VALUES ($1, $2, $3::jsonb, now(), now() + make_interval(secs => $4))
  ON CONFLICT (session_id) DO UPDATE SET state = EXCLUDED.state, updated_at = now(), expires_at = EXCLUDED.expires_at`
const REMOVE = 'DELETE FROM ussd_sessions WHERE session_id = $1'

/**
 * USSD dial state in PostgreSQL (table ussd_sessions), keyed by the gateway's session id, so any app
 * instance can answer any hop. Callers must never put the PIN in `state`.
 */
export function createSessionStore(sequelize: Sequelize) {
  const run = preparedRunner(sequelize)
  return {
    async get<S>(sessionId: string): Promise<StoredSession<S> | null> {
      const { rows: [row] } = await run('ussd_session_get', GET, [sessionId])
      return row ? { sessionId, phone: row.phone, state: row.state as S, expired: row.expired } : null
    },
    async save<S>(sessionId: string, phone: string, state: S): Promise<void> {
      await run('ussd_session_save', SAVE, [sessionId, phone, JSON.stringify(state), SESSION_IDLE_SECONDS])
    },
    /**
     * Marks a one-time step (placing the order) as taken, once: a gateway retry arriving while the
     * first request is still working finds it taken and does not act twice.
     */
    async claim(sessionId: string, step: string): Promise<boolean> {
      const rows = await sequelize.query(
        `UPDATE ussd_sessions SET state = jsonb_set(state, '{claimed}', COALESCE(state->'claimed', '[]'::jsonb) || to_jsonb(CAST(:step AS text)))
          WHERE session_id = :id AND NOT COALESCE(state->'claimed', '[]'::jsonb) ? :step RETURNING 1`,
        { replacements: { id: sessionId, step }, type: QueryTypes.SELECT },
      )
      return rows.length > 0
    },
    async remove(sessionId: string): Promise<void> {
      await run('ussd_session_remove', REMOVE, [sessionId])
    },
    /** Housekeeping (jobs): drops sessions idle past their expiry; returns how many. */
    async purgeExpired(): Promise<number> {
      const [, meta] = await sequelize.query('DELETE FROM ussd_sessions WHERE expires_at <= now()')
      return (meta as { rowCount?: number })?.rowCount ?? 0
    },
  }
}

export type SessionStore = ReturnType<typeof createSessionStore>
