import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { StoredLine } from './queries-accept.ts'

// Every statement of the bulk capability's batches, and the typed camelCase rows they return. The
// lines' orders and payments are written set-based by accept.ts, in the batch's transaction.

/** How far a batch's lines have come: each line counts once in queued, delivered or failed; refunded counts failed lines whose money went back. */
export interface BatchCounts {
  queued: number
  delivered: number
  failed: number
  refunded: number
}

export interface Batch {
  id: number
  agentId: number
  userId: number | null
  channel: string
  lineCount: number
  totalPesewas: number
  notifySms: boolean
  completedAt: Date | null
  createdAt: Date
  /** PAID, AWAITING_PAYMENT or CANCELLED. */
  status: string
  paymentTransactionId: string | null
  /** The admins' list names the agent. */
  agent?: { name: string; phone: string }
}

/** A line's order as the batch's page, its CSV and the API show it. */
export interface BatchLine {
  id: number
  recipientNumber: string
  network: string
  packageName: string | null
  dataSizeMb: number
  amountPesewas: number
  paymentStatus: string
  deliveryStatus: string
  deliveryReference: string | null
  deliveryError: string | null
}

type Raw = Record<string, any>

const toBatch = (r: Raw): Batch => ({
  id: Number(r.id),
  agentId: Number(r.agent_id),
  userId: r.user_id == null ? null : Number(r.user_id),
  channel: r.channel,
  lineCount: Number(r.line_count),
  totalPesewas: Number(r.total_pesewas),
  notifySms: Boolean(r.notify_sms),
  completedAt: r.completed_at ? new Date(r.completed_at) : null,
  createdAt: new Date(r.created_at),
  status: r.status ?? 'PAID',
  paymentTransactionId: r.payment_transaction_id ?? null,
  ...(r.agent_name !== undefined ? { agent: { name: r.agent_name, phone: r.agent_phone } } : {})
})

/** The counts of many batches in one statement (lists) or of one (its page's poll). */
const COUNTS_SQL = `SELECT batch_id,
    count(*) FILTER (WHERE delivery_status NOT IN ('DELIVERED','MANUAL','FAILED'))::int AS queued,
    count(*) FILTER (WHERE delivery_status IN ('DELIVERED','MANUAL'))::int AS delivered,
    count(*) FILTER (WHERE delivery_status = 'FAILED')::int AS failed,
    count(*) FILTER (WHERE payment_status = 'REFUNDED')::int AS refunded
  FROM orders_view WHERE batch_id IN (:ids) GROUP BY batch_id`

export function createBulkQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    /** Each batch's counts, by batch id. */
    async counts(ids: number[], t?: Transaction): Promise<Map<number, BatchCounts>> {
      const rows = await q(COUNTS_SQL, { ids }, t)
      return new Map(rows.map((c) => [Number(c.batch_id), { queued: c.queued, delivered: c.delivered, failed: c.failed, refunded: c.refunded }]))
    },

    /** A batch by id; `agentId` null for any agent's (an admin). */
    async batch(id: number, agentId: number | null): Promise<Batch | null> {
      const [r] = await q('SELECT * FROM order_batches WHERE id = :id AND (:agentId::int IS NULL OR agent_id = :agentId)', { id, agentId })
      return r ? toBatch(r) : null
    },

    /** An agent's batches, newest first, and how many there are. */
    async agentBatches(agentId: number, page: { limit: number; offset: number }): Promise<{ batches: Batch[]; total: number }> {
      const rows = await q('SELECT * FROM order_batches WHERE agent_id = :agentId ORDER BY created_at DESC, id DESC LIMIT :limit OFFSET :offset', {
        agentId,
        ...page
      })
      const [n] = await q('SELECT count(*)::int AS n FROM order_batches WHERE agent_id = :agentId', { agentId })
      return { batches: rows.map(toBatch), total: Number(n!.n) }
    },

    /** Every batch with its agent, newest first, and how many there are. */
    async allBatches(page: { limit: number; offset: number }): Promise<{ batches: Batch[]; total: number }> {
      const rows = await q(
        `SELECT b.*, a.name AS agent_name, a.phone AS agent_phone FROM order_batches b JOIN agents a ON a.id = b.agent_id
          ORDER BY b.created_at DESC, b.id DESC LIMIT :limit OFFSET :offset`,
        page
      )
      const [n] = await q('SELECT count(*)::int AS n FROM order_batches', {})
      return { batches: rows.map(toBatch), total: Number(n!.n) }
    },

    async lines(batchId: number): Promise<BatchLine[]> {
      const rows = await q(
        `SELECT id, recipient_number, network, package_name, data_size_mb, amount_pesewas, payment_status, delivery_status, delivery_reference, delivery_error
           FROM orders_view WHERE batch_id = :id ORDER BY id`,
        { id: batchId }
      )
      return rows.map((o) => ({
        id: Number(o.id),
        recipientNumber: o.recipient_number,
        network: o.network,
        packageName: o.package_name,
        dataSizeMb: o.data_size_mb,
        amountPesewas: o.amount_pesewas,
        paymentStatus: o.payment_status,
        deliveryStatus: o.delivery_status,
        deliveryReference: o.delivery_reference ?? null,
        deliveryError: o.delivery_error ?? null
      }))
    },

    /** The lines whose delivery failed for good, oldest first. */
    async failedLines(batchId: number): Promise<{ recipientNumber: string; network: string; packageId: number }[]> {
      const rows = await q(`SELECT recipient_number, network, package_id FROM orders_view WHERE batch_id = :id AND delivery_status = 'FAILED' ORDER BY id`, {
        id: batchId
      })
      return rows.map((r) => ({ recipientNumber: r.recipient_number, network: r.network, packageId: r.package_id }))
    },

    /** A batch whose payment never started goes: bad input changes nothing. */
    async dropAwaiting(id: number): Promise<void> {
      await q(`DELETE FROM order_batches WHERE id = :id AND status = 'AWAITING_PAYMENT' RETURNING id`, { id })
    },

    /** The batch waiting for this payment, locked, with its stored lines. */
    async awaitingForUpdate(transactionId: string, t: Transaction): Promise<(Batch & { pendingLines: StoredLine[] }) | null> {
      const [r] = await q(
        `SELECT * FROM order_batches WHERE payment_transaction_id = :tid AND status = 'AWAITING_PAYMENT' FOR UPDATE`,
        { tid: transactionId },
        t
      )
      return r ? { ...toBatch(r), pendingLines: r.pending_lines } : null
    },

    /** The batch of this payment, whatever its state, locked. */
    async byPaymentForUpdate(transactionId: string, t: Transaction): Promise<Batch | null> {
      const [r] = await q(`SELECT * FROM order_batches WHERE payment_transaction_id = :tid FOR UPDATE`, { tid: transactionId }, t)
      return r ? toBatch(r) : null
    },

    async userEmail(userId: number | null, t: Transaction): Promise<string | null> {
      const [r] = await q('SELECT email FROM users WHERE id = :id', { id: userId }, t)
      return r?.email ?? null
    },

    /** Paid or cancelled: the stored lines are no longer needed. */
    async settle(id: number, status: 'PAID' | 'CANCELLED', t: Transaction): Promise<void> {
      await q(`UPDATE order_batches SET status = :status, pending_lines = NULL WHERE id = :id RETURNING id`, { id, status }, t)
    },

    /**
     * Locks a batch not completed yet. Not its key: a line's refund in the same transaction has already
     * taken the row for key share (its entry's foreign key), and two lines ending at once would each hold
     * that share and wait on the other's for a full update: a deadlock. The no-key lock still counts the
     * lines one after the other.
     */
    async openForUpdate(id: number, t: Transaction): Promise<Batch | null> {
      const [r] = await q('SELECT * FROM order_batches WHERE id = :id AND completed_at IS NULL FOR NO KEY UPDATE', { id }, t)
      return r ? toBatch(r) : null
    },

    /** How many of a batch's lines are still on their way. */
    async openLines(id: number, t: Transaction): Promise<number> {
      const [r] = await q(
        `SELECT count(*)::int AS n FROM orders_view WHERE batch_id = :id AND delivery_status NOT IN ('DELIVERED','MANUAL','FAILED')`,
        { id },
        t
      )
      return Number(r!.n)
    },

    async markCompleted(id: number, t: Transaction): Promise<Batch> {
      const [r] = await q('UPDATE order_batches SET completed_at = now() WHERE id = :id RETURNING *', { id }, t)
      return toBatch(r!)
    }
  }
}
