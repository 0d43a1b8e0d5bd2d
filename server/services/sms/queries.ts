import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'
import type { SmsOutboxRow } from '../../../models/rows.ts'

// Every statement on the SMS outbox; its rows come back as the model's row type.

type Raw = Record<string, any>

const toOutbox = (r: Raw): SmsOutboxRow => ({
  id: r.id,
  toPhone: r.to_phone,
  message: r.message,
  sensitive: !!r.sensitive,
  status: r.status,
  provider: r.provider,
  providerMessageId: r.provider_message_id,
  attempts: r.attempts,
  error: r.error,
  sentAt: r.sent_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

/**
 * A text written by a statement that writes something else (a wallet order's, ADR 0075), as a data-modifying CTE: one
 * QUEUED row from `$first` (the phone) and `$first + 1` (the message, `outboxText`'s), for each row of `gate`, none
 * when the phone is null. Returns its id.
 */
export const textOfWritten = (gate: string, first: number) =>
  `INSERT INTO sms_outbox (to_phone, message, status, sensitive, created_at, updated_at)
    SELECT $${first}::text, $${first + 1}::text, 'QUEUED', false, now(), now() FROM ${gate} WHERE $${first}::text IS NOT NULL RETURNING id`

export interface OutboxFilter {
  status: string
  phone: string
}

// A filter on a pending status also names `NOT finished`, the condition of the index of pending texts: the planner
// cannot tell that `status = 'QUEUED'` implies it, and would otherwise read every text ever sent for a few pending.
const statusWhere = (status: string) =>
  status === 'ALL' ? 'TRUE' : status === 'QUEUED' || status === 'SENDING' ? 'status = :status AND NOT finished' : 'status = :status'

export const whereOf = (f: OutboxFilter) => [statusWhere(f.status), f.phone ? 'to_phone = :phone' : 'TRUE'].join(' AND ')

export function createSmsQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
  // Every order's texts are written, claimed and marked SENT here: named statements, and no wait for the WAL
  // flush on the marks (a crash of PostgreSQL may lose them; the sweep then sends those texts again; ADR 0024).
  const run = preparedFor(sequelize)

  return {
    insert: async (phone: string, message: string, sensitive: boolean, t?: Transaction): Promise<number> => {
      const [row] = await run<{ id: number }>(
        `INSERT INTO sms_outbox (to_phone, message, status, sensitive, created_at, updated_at) VALUES ($1, $2, 'QUEUED', $3, now(), now()) RETURNING id`,
        [phone, message, sensitive],
        t
      )
      return row!.id
    },

    /** One INSERT for many texts; their ids in the texts' order. */
    insertMany: async (rows: { phone: string; message: string }[], t?: Transaction): Promise<number[]> =>
      (
        await sequelize.query<{ id: number }>(
          `INSERT INTO sms_outbox (to_phone, message, status, sensitive, created_at, updated_at)
       SELECT p, m, 'QUEUED', false, now(), now() FROM unnest(ARRAY[:phone]::text[], ARRAY[:message]::text[]) WITH ORDINALITY AS x(p, m, i) ORDER BY i RETURNING id`,
          { replacements: { phone: rows.map((r) => r.phone), message: rows.map((r) => r.message) }, type: QueryTypes.SELECT, transaction: t }
        )
      ).map((r) => Number(r.id)),

    // Written so that the partial index of QUEUED/SENDING texts cannot serve it (`NOT IN ('SENT','FAILED')`
    // is the same rows under the status CHECK, but does not imply that index's predicate): the plan
    // PostgreSQL keeps for this named statement used to walk that index, every pending text, to find
    // these ids (571 buffers per claim in a 1,000-order burst, growing with the backlog). Now each id
    // is one primary-key lookup, whatever the backlog.
    claim: async (ids: number[], provider: string, staleSeconds: number): Promise<SmsOutboxRow[]> =>
      (
        await run(
          `UPDATE sms_outbox SET status = 'SENDING', attempts = attempts + 1, provider = $2, updated_at = now()
       FROM ${NO_FLUSH_WAIT}
       WHERE id = ANY($1::int[]) AND status NOT IN ('SENT', 'FAILED')
         AND (status = 'QUEUED' OR updated_at < now() - make_interval(secs => $3)) RETURNING sms_outbox.*`,
          [ids, provider, staleSeconds]
        )
      ).map(toOutbox),

    markSent: async (sent: { id: number; mid: string | null }[]) => {
      await run(
        `UPDATE sms_outbox s SET status = 'SENT', provider_message_id = v.mid, error = NULL, sent_at = now(), updated_at = now()
           FROM unnest($1::int[], $2::text[]) AS v(id, mid), ${NO_FLUSH_WAIT} WHERE s.id = v.id`,
        [sent.map((r) => r.id), sent.map((r) => r.mid)]
      )
    },

    markFailed: async (id: number, error: string) => {
      await q(`UPDATE sms_outbox SET status = 'FAILED', error = :error, updated_at = now() WHERE id = :id RETURNING id`, { id, error })
    },

    requeue: async (id: number, error: string, t: Transaction) => {
      await sequelize.query(`UPDATE sms_outbox SET status = 'QUEUED', error = :error, updated_at = now() WHERE id = :id`, {
        replacements: { id, error },
        transaction: t
      })
    },

    /**
     * Rows nobody sent: QUEUED or SENDING untouched for this long, oldest first. `NOT finished` (neither SENT nor
     * FAILED, computed from the status) is the condition of the index of pending texts, which names no other column,
     * so that a claim, which changes the status but not `finished`, can be a HOT update.
     */
    forgotten: async (staleSeconds: number): Promise<number[]> =>
      (
        await q<{ id: number }>(
          `SELECT id FROM sms_outbox WHERE NOT finished AND updated_at < now() - make_interval(secs => :s) ORDER BY created_at LIMIT 500`,
          { s: staleSeconds }
        )
      ).map((r) => r.id),

    page: async (f: OutboxFilter, limit: number, offset: number): Promise<SmsOutboxRow[]> =>
      (
        await q<Raw>(`SELECT * FROM sms_outbox WHERE ${whereOf(f)} ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset`, {
          ...f,
          limit,
          offset
        })
      ).map(toOutbox),

    count: async (f: OutboxFilter): Promise<number> => {
      const [row] = await q<{ n: string }>(`SELECT count(*) AS n FROM sms_outbox WHERE ${whereOf(f)}`, { ...f })
      return Number(row?.n ?? 0)
    }
  }
}
