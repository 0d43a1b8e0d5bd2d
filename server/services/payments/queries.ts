import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import type { PaymentRow } from './provider.ts'

// The statements of opening a payment and of the payer's questions about it. Payment rows keep the
// table's own column names (PaymentRow, shared by settlement, refunds and the providers); what these
// functions add is camelCase.

/** The types of a new payment's parameters, in `paymentValues`'s order (the order's id comes apart). */
const PAYMENT_PARAM_TYPES = ['text', 'text', 'text', 'text', 'int', 'text', 'text', 'text', 'int', 'int', 'int', 'jsonb', 'boolean', 'boolean']

/**
 * A new PENDING payment's INSERT, its parameters from $first in `paymentValues`'s order, typed (an
 * INSERT ... SELECT does not type its parameters by the columns), and its order's id an expression
 * (a parameter, or the id of an order written by the same statement).
 */
function paymentInsert(first: number, orderId: string, from: string) {
  const $ = (i: number) => `$${first + i}::${PAYMENT_PARAM_TYPES[i]}`
  return `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, payer_phone, payer_network, email,
    order_id, afa_registration_id, agent_id, user_id, details, last_checked_at, simulated)
  SELECT ${$(0)}, ${$(1)}, ${$(2)}, ${$(3)}, 'PENDING', ${$(4)}, ${$(5)}, ${$(6)}, ${$(7)}, ${orderId}, ${$(8)}, ${$(9)}, ${$(10)},
    CASE WHEN ${$(13)} THEN ${$(11)} || jsonb_build_object('startedAt', now()) ELSE ${$(11)} END, now(), ${$(12)}${from} RETURNING *`
}

const INSERT_PAYMENT = paymentInsert(1, '$15::int', '')

/**
 * The payment of an order that the caller's statement writes (`source`: its CTE), parameters from
 * $first (`paymentValues`): an order and its payment in one statement, so in one commit.
 */
export const paymentOfWritten = (source: string, first: number) => paymentInsert(first, `${source}.id`, ` FROM ${source}`)

/** A new payment's parameters for `paymentInsert`, without its order's id. */
export const paymentValues = (p: Omit<NewPayment, 'orderId'>): unknown[] => [
  p.transactionId,
  p.purpose,
  p.gateway,
  p.method,
  p.amountPesewas,
  p.payerPhone,
  p.payerNetwork,
  p.email,
  p.afaRegistrationId,
  p.agentId,
  p.userId,
  JSON.stringify(p.details),
  p.simulated,
  p.claimed
]

/** The columns of a new PENDING payment, in INSERT_PAYMENT's order. */
export interface NewPayment {
  transactionId: string
  purpose: string
  gateway: string
  method: string
  amountPesewas: number
  payerPhone: string | null
  payerNetwork: string | null
  email: string | null
  orderId: number | null
  afaRegistrationId: number | null
  agentId: number | null
  userId: number | null
  details: Record<string, unknown>
  simulated: boolean
  /** Written with its start already claimed (`startedAt`). */
  claimed: boolean
}

/** One payment of the simulator's own "gateway side", as its list reports it. */
export interface SimulatedPayment {
  reference: string
  status: string
  amountPesewas: number
}

export type PaymentQueries = ReturnType<typeof createPaymentQueries>

export function createPaymentQueries(sequelize: Sequelize) {
  const run = preparedFor(sequelize)
  const select = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    /** Every order placed writes one: a named statement, no model instance (ADR 0024). */
    async insert(p: NewPayment, transaction?: Transaction): Promise<PaymentRow> {
      const [row] = await run<PaymentRow>(INSERT_PAYMENT, [...paymentValues(p), p.orderId], transaction)
      return row!
    },

    /** The order is marked too: admin tables, exports and delivery must know no real money moved. */
    async markOrderSimulated(orderId: number, transaction?: Transaction): Promise<void> {
      await select('UPDATE orders SET simulated = true, updated_at = now() WHERE id = :id RETURNING id', { id: orderId }, transaction)
    },

    /** An agent's fee awaits this payment (unless the fee is already paid). */
    async markAgentFeePending(agentId: number, transactionId: string, transaction?: Transaction): Promise<void> {
      await select(
        `UPDATE agents SET payment_status = 'PENDING', payment_transaction_id = :tid, updated_at = now()
         WHERE id = :id AND payment_status IS DISTINCT FROM 'SUCCESS' RETURNING id`,
        { id: agentId, tid: transactionId },
        transaction
      )
    },

    /** Whether a data order was an agent's own (its callback page differs from a visitor's). */
    async orderIsAgents(orderId: number): Promise<boolean> {
      const [o] = await select<{ agent_id: number | null }>('SELECT agent_id FROM orders WHERE id = :id', { id: orderId })
      return !!o?.agent_id
    },

    /** The phone a simulated prompt rings, by reference. */
    async payerPhonesOf(reference: string): Promise<(string | null)[]> {
      const rows = await select<{ payer_phone: string | null }>('SELECT payer_phone FROM payments WHERE transaction_id = :r', { r: reference })
      return rows.map((r) => r.payer_phone)
    },

    /** The simulator's "gateway side" is the payer's answer kept on our own rows: its list is read from them. */
    async simulatedBetween(from: Date, to: Date): Promise<SimulatedPayment[]> {
      const rows = await select<{ reference: string; status: string; amount: number }>(
        `SELECT transaction_id AS reference, CASE details->'simulator'->>'decision' WHEN 'APPROVED' THEN 'success' WHEN 'DECLINED' THEN 'failed' ELSE 'pending' END AS status, amount_pesewas AS amount
           FROM payments WHERE gateway = 'simulator' AND created_at >= :from AND created_at < :to`,
        { from, to }
      )
      return rows.map((r) => ({ reference: r.reference, status: r.status, amountPesewas: r.amount }))
    }
  }
}
