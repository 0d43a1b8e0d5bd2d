import { QueryTypes, type Sequelize } from 'sequelize'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'

// The USSD capability's statements outside the PIN check (whose two stay in index.ts, where mutation
// testing reads them), and the typed camelCase rows they return.

/** The agent a phone dials in as, with what the gate checks. */
export interface DialAgent {
  id: number
  userId: number
  name: string
  phone: string
  approved: boolean
  paymentStatus: string
  hasPin: boolean
  lockedUntil: Date | null
}

export interface SessionRow {
  phone: string
  state: unknown
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

/** Dial state (table ussd_sessions): every hop reads and writes it, as named statements (ADR 0024). */
export function createSessionQueries(sequelize: Sequelize) {
  const run = preparedFor(sequelize)
  return {
    get: async (sessionId: string): Promise<SessionRow | null> => {
      const [row] = await run(GET, [sessionId])
      return row ? { phone: row.phone, state: row.state, expired: row.expired } : null
    },
    save: async (sessionId: string, phone: string, stateJson: string, idleSeconds: number) => {
      await run(SAVE, [sessionId, phone, stateJson, idleSeconds])
    },
    claim: async (sessionId: string, step: string) => (await run(CLAIM, [sessionId, step])).length > 0,
    remove: async (sessionId: string) => {
      await run(REMOVE, [sessionId])
    },
    purgeExpired: async (): Promise<number> => {
      const [, meta] = await sequelize.query('DELETE FROM ussd_sessions WHERE expires_at <= now()')
      return (meta as { rowCount?: number })?.rowCount ?? 0
    }
  }
}

export function createUssdQueries(sequelize: Sequelize) {
  // Every dial checks the agent: a named statement (ADR 0024).
  const run = preparedFor(sequelize)
  return {
    isWhitelisted: async (phones: string[]) =>
      (
        await sequelize.query('SELECT 1 FROM ussd_whitelist WHERE is_active AND phone_number IN (:phones) LIMIT 1', {
          replacements: { phones },
          type: QueryTypes.SELECT
        })
      ).length > 0,

    /** Several profiles could share a number; the one that can use the channel wins. */
    agentByPhones: async (phones: string[]): Promise<DialAgent | null> => {
      const [a] = await run<any>(
        `SELECT a.id, a.user_id, a.name, a.phone, a.approved, a.payment_status, a.pin_hash IS NOT NULL AS has_pin,
                CASE WHEN a.pin_locked_until > now() THEN a.pin_locked_until END AS locked_until
           FROM agents a JOIN users u ON u.id = a.user_id
          WHERE a.phone = ANY($1::text[])
          ORDER BY a.approved DESC, (a.payment_status = 'SUCCESS') DESC, a.id
          LIMIT 1`,
        [phones]
      )
      if (!a) return null
      return {
        id: a.id,
        userId: a.user_id,
        name: a.name,
        phone: a.phone,
        approved: a.approved,
        paymentStatus: a.payment_status,
        hasPin: a.has_pin,
        lockedUntil: a.locked_until
      }
    },

    /** The newest of these owners' orders whose transaction id ends with the digits. */
    orderIdByTxSuffix: async (agentId: number, userId: number, digits: string): Promise<number | null> => {
      const [row] = await sequelize.query<{ id: number }>(
        `SELECT id FROM orders WHERE (agent_id = :agentId OR user_id = :userId) AND payment_transaction_id LIKE :suffix
          ORDER BY created_at DESC, id DESC LIMIT 1`,
        { replacements: { agentId, userId, suffix: `%${digits}` }, type: QueryTypes.SELECT }
      )
      return row ? row.id : null
    }
  }
}
