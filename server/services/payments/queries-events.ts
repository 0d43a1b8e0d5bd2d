import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { PaymentRow } from './provider.ts'

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

  return {
    /** `first` is false when the same event came before (its count goes up instead). */
    async store(e: StoredEvent): Promise<{ id: number; first: boolean }> {
      const [row] = await q<{ id: number; first: boolean }>(
        `INSERT INTO gateway_events (gateway, event_key, event, reference, payload) VALUES (:gateway, :key, :event, :ref, CAST(:payload AS jsonb))
       ON CONFLICT (gateway, event_key) DO UPDATE SET received_count = gateway_events.received_count + 1
       RETURNING id, (xmax = 0) AS first`,
        { gateway: e.gateway, key: e.key, event: e.event, ref: e.reference, payload: JSON.stringify(e.payload) }
      )
      return { id: Number(row!.id), first: row!.first }
    },

    async mark(id: number, handled: boolean, note: string): Promise<void> {
      await q(`UPDATE gateway_events SET handled = :handled, note = :note WHERE id = :id RETURNING id`, { id, handled, note })
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
