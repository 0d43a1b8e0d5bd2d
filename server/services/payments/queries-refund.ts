import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { EXPORT_LOCK } from '../delivery/export-lock.ts'
import type { PaymentRow } from './provider.ts'

// The statements of refunds: deciding one once, the money call's progress, its final word, and the
// payment, order and commission that follow. Payment rows keep the table's column names (PaymentRow).

export interface Refund {
  id: number
  paymentId: number
  transactionId: string
  kind: 'full' | 'excess' | 'shortfall'
  gateway: string
  amountPesewas: number
  reason: string
  status: 'PENDING' | 'SENDING' | 'SENT' | 'PROCESSED' | 'FAILED'
  extRefundId: string | null
  message: string | null
  attempts: number
}

/** A refund to decide, in the columns of refunds. */
export interface NewRefund {
  paymentId: number
  transactionId: string
  kind: Refund['kind']
  gateway: string
  amountPesewas: number
  reason: string
  requestedBy: number | null
}

/** What the admin's Refund on an order checks. */
export interface RefundableOrder {
  paymentTransactionId: string | null
  delivered: boolean
  paymentStatus: string
  deliveryStatus: string
}

type Raw = Record<string, any>

const toRefund = (r: Raw): Refund => ({
  id: Number(r.id),
  paymentId: Number(r.payment_id),
  transactionId: r.transaction_id,
  kind: r.kind,
  gateway: r.gateway,
  amountPesewas: Number(r.amount_pesewas),
  reason: r.reason,
  status: r.status,
  extRefundId: r.ext_refund_id,
  message: r.message,
  attempts: Number(r.attempts)
})

export function createRefundQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const oneRefund = async (sql: string, replacements: Record<string, unknown>, transaction?: Transaction): Promise<Refund | undefined> => {
    const [r] = await q<Raw>(sql, replacements, transaction)
    return r && toRefund(r)
  }

  return {
    /** The refunds already decided for a payment (failed ones aside), in pesewas. */
    async decidedFor(paymentId: number, t?: Transaction): Promise<number> {
      const [r] = await q<{ s: string | null }>(
        `SELECT sum(amount_pesewas) AS s FROM refunds WHERE payment_id = :id AND status <> 'FAILED'`,
        { id: paymentId },
        t
      )
      // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always answers one row
      return Number(r?.s ?? 0)
    },

    /** The new refund, or undefined when the payment already has one of this kind. */
    insert: (n: NewRefund, t: Transaction): Promise<Refund | undefined> =>
      oneRefund(
        `INSERT INTO refunds (payment_id, transaction_id, kind, gateway, amount_pesewas, reason, requested_by)
       VALUES (:pid, :tid, :kind, :gateway, :amount, :reason, :by)
       ON CONFLICT (transaction_id, kind) DO NOTHING RETURNING *`,
        { pid: n.paymentId, tid: n.transactionId, kind: n.kind, gateway: n.gateway, amount: n.amountPesewas, reason: n.reason, by: n.requestedBy },
        t
      ),

    async paymentRefundPending(paymentId: number, t: Transaction): Promise<void> {
      await q(`UPDATE payments SET status = 'REFUND_PENDING', updated_at = now() WHERE id = :id RETURNING id`, { id: paymentId }, t)
    },

    /** Whether the order was paid (and is now marked refunded). */
    async orderRefunded(orderId: number, t: Transaction): Promise<boolean> {
      const [order] = await q<{ id: number }>(
        `UPDATE orders SET payment_status = 'REFUNDED', updated_at = now() WHERE id = :id AND payment_status = 'SUCCESS' RETURNING id`,
        { id: orderId },
        t
      )
      return !!order
    },

    /** The order's commission taken back, in pesewas (null when it earned none): money given back or reversed earns nothing. */
    async deleteCommission(orderId: number, t: Transaction): Promise<number | null> {
      const [c] = await q<{ commission_amount_pesewas: number }>(
        'DELETE FROM commissions WHERE order_id = :id RETURNING commission_amount_pesewas',
        { id: orderId },
        t
      )
      return c ? Number(c.commission_amount_pesewas) : null
    },

    /** The provider's final word, once: undefined when the refund was already final. */
    finish: (id: number, status: 'PROCESSED' | 'FAILED', message: string, extRefundId: string | null, t: Transaction): Promise<Refund | undefined> =>
      oneRefund(
        `UPDATE refunds SET status = :s, message = :m, ext_refund_id = COALESCE(:ext, ext_refund_id), updated_at = now()
         WHERE id = :id AND status IN ('PENDING','SENDING','SENT') RETURNING *`,
        { id, s: status, m: message, ext: extRefundId },
        t
      ),

    /** A fully refunded payment follows its refund's final word. */
    async paymentRefundDone(paymentId: number, status: 'REFUNDED' | 'REFUND_FAILED', t: Transaction): Promise<void> {
      await q(
        `UPDATE payments SET status = :s, updated_at = now() WHERE id = :id AND status IN ('REFUND_PENDING','REFUND_FAILED') RETURNING id`,
        { id: paymentId, s: status },
        t
      )
    },

    /** The money call claimed (one more attempt); undefined when nothing is left to send. */
    claimSending: (id: number): Promise<Refund | undefined> =>
      oneRefund(
        `UPDATE refunds SET status = 'SENDING', attempts = attempts + 1, updated_at = now() WHERE id = :id AND status IN ('PENDING','SENDING') RETURNING *`,
        { id }
      ),

    async extTransactionIdOf(paymentId: number): Promise<string | null> {
      const [p] = await q<{ ext_transaction_id: string | null }>('SELECT ext_transaction_id FROM payments WHERE id = :id', { id: paymentId })
      // Stryker disable next-line OptionalChaining,LogicalOperator: the refund's payment exists (foreign key), and no refund handler reads RefundCall.extId (Paystack refunds by reference)
      return p?.ext_transaction_id ?? null
    },

    async markSent(id: number, extRefundId: string | null, message: string): Promise<void> {
      await q(
        `UPDATE refunds SET status = 'SENT', ext_refund_id = COALESCE(:ext, ext_refund_id), message = :m, updated_at = now() WHERE id = :id AND status = 'SENDING' RETURNING id`,
        { id, ext: extRefundId, m: message }
      )
    },

    /** The payment, locked for this transaction's decision. */
    async lockPayment(transactionId: string, t?: Transaction): Promise<PaymentRow | null> {
      const [p] = await q<PaymentRow>('SELECT * FROM payments WHERE transaction_id = :tid FOR UPDATE', { tid: transactionId }, t)
      return p ?? null
    },

    /** Shared with other refunds, exclusive for the export (ADR 0021). */
    async lockAgainstExport(t: Transaction): Promise<void> {
      await q('SELECT pg_advisory_xact_lock_shared(:k)', { k: EXPORT_LOCK }, t)
    },

    async order(id: number, t: Transaction): Promise<RefundableOrder | undefined> {
      const [o] = await q<Raw>('SELECT payment_transaction_id, delivered, payment_status, delivery_status FROM orders_view WHERE id = :id', { id }, t)
      return (
        o && {
          paymentTransactionId: o.payment_transaction_id,
          delivered: o.delivered,
          paymentStatus: o.payment_status,
          deliveryStatus: o.delivery_status
        }
      )
    },

    async paymentPurpose(transactionId: string): Promise<{ orderId: number | null; purpose: string } | undefined> {
      const [p] = await q<{ order_id: number | null; purpose: string }>('SELECT order_id, purpose FROM payments WHERE transaction_id = :tid', {
        tid: transactionId
      })
      // Stryker disable next-line ConditionalExpression: Number(null) is 0, as falsy as null for the one caller (`if (p.orderId)`)
      return p && { orderId: p.order_id == null ? null : Number(p.order_id), purpose: p.purpose }
    },

    /** The gateway that took the order's payment. */
    async orderGateway(orderId: number, t?: Transaction): Promise<string | undefined> {
      const [pay] = await q<{ gateway: string }>(
        'SELECT p.gateway FROM orders o JOIN payments p ON p.transaction_id = o.payment_transaction_id WHERE o.id = :id',
        { id: orderId },
        t
      )
      return pay?.gateway
    },

    /** A failed refund back to PENDING; undefined when it had not failed. */
    reopenFailed: (id: number, t: Transaction): Promise<Refund | undefined> =>
      oneRefund(`UPDATE refunds SET status = 'PENDING', attempts = 0, updated_at = now() WHERE id = :id AND status = 'FAILED' RETURNING *`, { id }, t),

    async paymentRefundRetried(paymentId: number, t: Transaction): Promise<void> {
      await q(
        `UPDATE payments SET status = 'REFUND_PENDING', updated_at = now() WHERE id = :id AND status = 'REFUND_FAILED' RETURNING id`,
        { id: paymentId },
        t
      )
    },

    /** The open refund a gateway event names, by its id at the gateway first, else by the payment's reference. */
    openForEvent: (extRefundId: string | null, reference: string): Promise<Refund | undefined> =>
      oneRefund(
        `SELECT * FROM refunds WHERE (ext_refund_id = :ext OR transaction_id = :ref) AND status IN ('PENDING','SENDING','SENT') ORDER BY (ext_refund_id = :ext) DESC NULLS LAST, id LIMIT 1`,
        { ext: extRefundId ?? '', ref: reference }
      ),

    /** Whether settlement credited this payment to the agent's wallet (a top-up or a bulk order's payment). */
    async walletCredited(transactionId: string, agentId: number, t: Transaction): Promise<boolean> {
      const [credit] = await q<{ id: string }>(
        `SELECT id FROM wallet_entries WHERE payment_transaction_id = :tid AND type = 'TOPUP' AND agent_id = :agentId`,
        { tid: transactionId, agentId },
        t
      )
      return !!credit
    },

    async anyFor(reference: string): Promise<boolean> {
      const [known] = await q('SELECT id FROM refunds WHERE transaction_id = :ref LIMIT 1', { ref: reference })
      return !!known
    },

    async noteExtRefundId(id: number, extRefundId: string | null): Promise<void> {
      await q(`UPDATE refunds SET ext_refund_id = COALESCE(ext_refund_id, :ext), updated_at = now() WHERE id = :id RETURNING id`, {
        id,
        ext: extRefundId
      })
    }
  }
}
