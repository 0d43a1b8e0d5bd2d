import { QueryTypes, type Sequelize } from 'sequelize'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'
import type { PaymentRow } from './provider.ts'

// The statements of starting a charge and asking the gateway about it. Payment rows keep the
// table's column names (PaymentRow, shared by settlement, refunds and the providers).

/**
 * The gateway's word on a started charge, and (when it says the payer is at it) the payment and its
 * order moved to IN_PROGRESS, never backwards: $6 moves the status, $7 sets what the gateway asks
 * the payer for ($8). The order moves in the same statement, so the answer needs no second commit.
 * Its commit does not wait for the WAL flush (ADR 0046): the order and its claimed payment were
 * flushed before the prompt went out, and a crash of PostgreSQL that loses this answer leaves the
 * payment pending and claimed, which reconciliation asks the gateway about by its reference, as it
 * does any unclear start. The next synchronous commit flushes it anyway. A browser's order may be
 * answered before this statement runs (ADR 0064), so a settlement can come first: a settled payment's
 * message is then settlement's, not the start's.
 */
const ANSWER = `WITH p AS (
    UPDATE payments SET ext_transaction_id = COALESCE($2, ext_transaction_id),
      message = CASE WHEN status IN ('PENDING','IN_PROGRESS') THEN COALESCE($3, message) ELSE message END,
      status = CASE WHEN $6 AND status IN ('PENDING','IN_PROGRESS') THEN 'IN_PROGRESS' ELSE status END,
      details = details || jsonb_build_object('authorizationUrl', $4::text)
                || CASE WHEN $5::text IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('unclear', $5::text) END
                || CASE WHEN $7 AND status IN ('PENDING','IN_PROGRESS') THEN jsonb_build_object('needs', $8::text) ELSE '{}'::jsonb END,
      updated_at = now()
    WHERE transaction_id = $1 RETURNING *),
  o AS (
    UPDATE orders SET payment_status = 'IN_PROGRESS', updated_at = now() FROM p
    WHERE orders.id = p.order_id AND p.status = 'IN_PROGRESS' AND orders.payment_status = 'PENDING' RETURNING orders.id)
  SELECT p.* FROM p, ${NO_FLUSH_WAIT}`

/** What the gateway said at a charge's start, in ANSWER's parameters. */
export interface StartAnswer {
  transactionId: string
  extId: string | null
  message: string | null
  authorizationUrl: unknown
  /** Why the answer was not clear, or null when it was. */
  unclear: string | null
  toInProgress: boolean
  setNeeds: boolean
  needs: string | null
}

export function createStartQueries(sequelize: Sequelize) {
  // Every charge started takes this path: named statements (ADR 0024).
  const run = preparedFor(sequelize)
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  return {
    /** The row as the answer left it (undefined when it is gone). */
    async answer(a: StartAnswer): Promise<PaymentRow | undefined> {
      const [after] = await run<PaymentRow>(ANSWER, [a.transactionId, a.extId, a.message, a.authorizationUrl, a.unclear, a.toInProgress, a.setNeeds, a.needs])
      return after
    },

    /** The PENDING payment's start, claimed once (`startedAt`); undefined when already claimed. */
    async claimStart(transactionId: string): Promise<PaymentRow | undefined> {
      const [row] = await q<PaymentRow>(
        `UPDATE payments SET details = details || jsonb_build_object('startedAt', now()), updated_at = now()
       WHERE transaction_id = :tid AND status = 'PENDING' AND NOT (details ? 'startedAt') RETURNING *`,
        { tid: transactionId }
      )
      return row
    },

    async forgetVoucher(transactionId: string): Promise<void> {
      await q(`UPDATE payments SET details = details - 'voucher' WHERE transaction_id = :tid RETURNING id`, { tid: transactionId })
    },

    /** The question to the gateway, claimed when the last one is at least `secs` old. */
    async claimCheck(transactionId: string, secs: number): Promise<PaymentRow | undefined> {
      const [claimed] = await q<PaymentRow>(
        `UPDATE payments SET last_checked_at = now()
       WHERE transaction_id = :tid AND (status IN ('PENDING','IN_PROGRESS') OR (status = 'EXPIRED' AND settled_at > now() - interval '1 day'))
         AND (last_checked_at IS NULL OR last_checked_at <= now() - make_interval(secs => :secs))
       RETURNING *`,
        { tid: transactionId, secs }
      )
      return claimed
    },

    /** The gateway refused the payer's code: its message, while the payment is still open. */
    async noteRejectedCode(transactionId: string, message: string): Promise<void> {
      await q(`UPDATE payments SET message = :m, updated_at = now() WHERE transaction_id = :tid AND status IN ('PENDING','IN_PROGRESS') RETURNING id`, {
        tid: transactionId,
        m: message
      })
    },

    /** Open payments older than their method's window (in seconds), the least recently asked first. */
    async staleOpen(momoSecs: number, cardSecs: number): Promise<string[]> {
      const stale = await q<{ transaction_id: string }>(
        `SELECT transaction_id FROM payments WHERE status IN ('PENDING','IN_PROGRESS')
         AND created_at < now() - make_interval(secs => CASE WHEN method = 'momo' THEN :momo ELSE :card END)
       ORDER BY last_checked_at NULLS FIRST, id LIMIT 500`,
        { momo: momoSecs, card: cardSecs }
      )
      return stale.map((r) => r.transaction_id)
    }
  }
}
