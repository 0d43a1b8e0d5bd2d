import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'
import type { PaymentRow } from './provider.ts'
import { SETTLE_BEFORE_WITH_TEXT_ORDER, type SettleBefore, withTextOrder, type TextOrder } from './queries-settle.ts'

// The statements of signed gateway events: keeping each once, marking what was done with it, and a
// settled payment's reversal. Payment rows keep the table's column names (PaymentRow).

/** A gateway event as stored to be kept once. */
export interface StoredEvent {
  gateway: string
  key: string
  event: string
  reference: string | null
  payload: Record<string, unknown>
}

export function createEventQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  const run = preparedFor(sequelize)

  return {
    /**
     * `first` is false when the same event came before (its count goes up instead). Its commit does not wait
     * for the WAL flush: each way of handling the event ends in a commit that waits (the settlement that
     * marks it, or `mark`), and the WAL is flushed in order, so the row is on disk before the gateway is
     * answered. A crash of PostgreSQL before that answer may lose it; the gateway, unanswered, sends the event again.
     */
    async store(e: StoredEvent): Promise<{ id: number; first: boolean }> {
      const [row] = await q<{ id: number; first: boolean }>(
        `INSERT INTO gateway_events (gateway, event_key, event, reference, payload)
         SELECT :gateway, :key, :event, :ref, CAST(:payload AS jsonb) FROM ${NO_FLUSH_WAIT}
       ON CONFLICT (gateway, event_key) DO UPDATE SET received_count = gateway_events.received_count + 1
       RETURNING id, (xmax = 0) AS first`,
        { gateway: e.gateway, key: e.key, event: e.event, ref: e.reference, payload: JSON.stringify(e.payload) }
      )
      return { id: Number(row!.id), first: row!.first }
    },

    /**
     * `store` and `loadWithOrder` in one statement, for an event that names its payment (a `charge.success`): the
     * event's row kept (or counted again, as `store`), and the payment its reference names read with its order's text
     * columns (null: this shop never issued it). Each webhook of a paid order takes it (named, ADR 0024). Its commit
     * does not wait for the WAL flush either, for `store`'s reason: every way on from here ends in a commit that waits
     * (the settling statement that marks the event, or `mark`). The payment is read in the statement's snapshot, from
     * before the event's row: the settlement's conditional UPDATE is the fence, however old the read. Only the payment's
     * columns `settle` decides from are read (`SettleBefore`).
     */
    async storeWithPayment(
      e: StoredEvent & { reference: string }
    ): Promise<{ stored: { id: number; first: boolean }; read: { row: SettleBefore; order: TextOrder | null } | null }> {
      const [row] = await run<
        SettleBefore & { text_order?: TextOrder | null; stored_event_id: number; stored_event_first: boolean; transaction_id: string | null }
      >(
        `WITH e AS (
           INSERT INTO gateway_events (gateway, event_key, event, reference, payload)
           SELECT $1::text, $2::text, $3::text, $4::text, CAST($5::text AS jsonb) FROM ${NO_FLUSH_WAIT}
           ON CONFLICT (gateway, event_key) DO UPDATE SET received_count = gateway_events.received_count + 1
           RETURNING id, (xmax = 0) AS first)
         SELECT e.id AS stored_event_id, e.first AS stored_event_first, pw.*
           FROM e LEFT JOIN (SELECT ${SETTLE_BEFORE_WITH_TEXT_ORDER} FROM payments WHERE transaction_id = $4::text) pw ON true`,
        [e.gateway, e.key, e.event, e.reference, JSON.stringify(e.payload)]
      )
      const { stored_event_id: id, stored_event_first: first, ...payment } = row!
      const stored = { id: Number(id), first }
      return { stored, read: payment.transaction_id ? withTextOrder(payment as SettleBefore & { text_order?: TextOrder | null }) : null }
    },

    /** In `transaction` when given (a settlement's, which then keeps the mark with it); else its own commit, which waits for the flush. */
    async mark(id: number, handled: boolean, note: string, transaction?: Transaction): Promise<void> {
      await q(`UPDATE gateway_events SET handled = :handled, note = :note WHERE id = :id RETURNING id`, { id, handled, note }, transaction)
    },

    /** The settled payment marked reversed, if there was one. */
    async reversePayment(reference: string, why: string, transaction: Transaction): Promise<PaymentRow | undefined> {
      const [p] = await q<PaymentRow>(
        `UPDATE payments SET status = 'REVERSED', message = :why, updated_at = now() WHERE transaction_id = :ref AND status IN ('SUCCESS','REFUND_FAILED') RETURNING *`,
        { ref: reference, why },
        transaction
      )
      return p
    },

    /** Whether the order's payment was settled (and is now marked reversed). */
    async reverseOrder(orderId: number, transaction: Transaction): Promise<boolean> {
      const [o] = await q(
        `UPDATE orders SET payment_status = 'REVERSED', updated_at = now() WHERE id = :id AND payment_status = 'SUCCESS' RETURNING id`,
        { id: orderId },
        transaction
      )
      return !!o
    },

    /** The gateway of the payment a reference names, if this shop issued it. */
    async gatewayOf(reference: string): Promise<string | undefined> {
      const [row] = await q<{ gateway: string }>('SELECT gateway FROM payments WHERE transaction_id = :ref', { ref: reference })
      return row?.gateway
    }
  }
}
