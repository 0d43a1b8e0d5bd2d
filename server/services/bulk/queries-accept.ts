import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Quote } from '../pricing/index.ts'

// The statements that write a batch (its row, its lines' orders and payments, set-based in the
// batch's transaction) and the reseller API's Idempotency-Key that records it.

/** A checked line as the batch keeps it while it waits for its payment (and as its order is written). */
export interface StoredLine {
  packageId: number
  name: string
  recipient: string
  network: string
  sizeMb: number
  pricePesewas: number
  /** A sub-agent's line: what its parent pays and earns on delivery (absent in lines kept before sub-agents could order in bulk). */
  parent?: Quote['parent']
}

export interface NewBatch {
  agentId: number
  userId: number
  channel: string
  lineCount: number
  totalPesewas: number
  notifySms: boolean
  status: 'AWAITING_PAYMENT' | 'PAID'
  paymentTransactionId: string | null
  /** Kept only while the batch waits for its payment. */
  pendingLines: StoredLine[] | null
}

/** A line's order as written. */
export interface LineOrder {
  id: number
  paymentTransactionId: string
  amountPesewas: number
  recipientNumber: string
  network: string
  dataSizeMb: number
}

/** What all of a batch's lines share. */
interface LinesOf {
  agentId: number
  userId: number | null
  batchId: number
  simulated: boolean
}

/** A use of an Idempotency-Key: the request it was for and what it made. */
export interface KeyUse {
  requestHash: string
  batchId: number | null
  orderId: number | null
}

export function createBulkAcceptQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, t?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: t })

  return {
    insertBatch: async (b: NewBatch, t: Transaction): Promise<number> => {
      const [batch] = await q<{ id: number }>(
        `INSERT INTO order_batches (agent_id, user_id, channel, line_count, total_pesewas, notify_sms, status, payment_transaction_id, pending_lines)
     VALUES (:agentId, :userId, :channel, :n, :total, :sms, :status, :tid, CAST(:pending AS jsonb)) RETURNING id`,
        {
          agentId: b.agentId,
          userId: b.userId,
          channel: b.channel,
          n: b.lineCount,
          total: b.totalPesewas,
          sms: b.notifySms,
          status: b.status,
          tid: b.paymentTransactionId,
          pending: b.pendingLines ? JSON.stringify(b.pendingLines) : null
        },
        t
      )
      return batch!.id
    },

    /** One statement for every line's order, in the lines' order. */
    insertLineOrders: async (of: LinesOf & { channel: string }, lines: StoredLine[], tids: string[], t: Transaction): Promise<LineOrder[]> => {
      const rows = await q<Record<string, any>>(
        `INSERT INTO orders (user_id, agent_id, package_id, package_name, recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, channel, simulated, batch_id,
                         parent_agent_id, parent_price_pesewas, parent_margin_pesewas)
     SELECT :userId, :agentId, p, n, r, nw, s, a, 'PENDING', tid, :channel, :simulated, :batchId, pa, pp, pm
       FROM unnest(ARRAY[:pkg]::int[], ARRAY[:name]::text[], ARRAY[:rcpt]::text[], ARRAY[:net]::text[], ARRAY[:size]::int[], ARRAY[:amt]::int[], ARRAY[:tid]::text[],
                   ARRAY[:pAgent]::int[], ARRAY[:pPrice]::int[], ARRAY[:pMargin]::int[])
         WITH ORDINALITY AS l(p, n, r, nw, s, a, tid, pa, pp, pm, i)
      ORDER BY i
     RETURNING id, payment_transaction_id, amount_pesewas, recipient_number, network, data_size_mb`,
        {
          ...of,
          pkg: lines.map((l) => l.packageId),
          name: lines.map((l) => l.name),
          rcpt: lines.map((l) => l.recipient),
          net: lines.map((l) => l.network),
          size: lines.map((l) => l.sizeMb),
          amt: lines.map((l) => l.pricePesewas),
          tid: tids,
          pAgent: lines.map((l) => l.parent?.agentId ?? null),
          pPrice: lines.map((l) => l.parent?.pricePesewas ?? null),
          pMargin: lines.map((l) => l.parent?.marginPesewas ?? null)
        },
        t
      )
      return rows.map((r) => ({
        id: r.id,
        paymentTransactionId: r.payment_transaction_id,
        amountPesewas: r.amount_pesewas,
        recipientNumber: r.recipient_number,
        network: r.network,
        dataSizeMb: r.data_size_mb
      }))
    },

    /** One statement for every line's wallet payment. */
    insertLinePayments: async (of: LinesOf & { email: string | null }, orders: LineOrder[], t: Transaction) => {
      await q(
        `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, email, order_id, agent_id, user_id, details, last_checked_at, simulated)
     SELECT tid, 'data', 'wallet', 'wallet', 'PENDING', a, :email, o, :agentId, :userId, jsonb_build_object('batchId', :batchId::int), now(), :simulated
       FROM unnest(ARRAY[:tid]::text[], ARRAY[:amt]::int[], ARRAY[:oid]::int[]) AS l(tid, a, o)`,
        {
          ...of,
          tid: orders.map((o) => o.paymentTransactionId),
          amt: orders.map((o) => o.amountPesewas),
          oid: orders.map((o) => o.id)
        },
        t
      )
    },

    keyUse: async (agentId: number, key: string): Promise<KeyUse | null> => {
      const [row] = await q<{ request_hash: string; batch_id: number | null; order_id: number | null }>(
        'SELECT request_hash, batch_id, order_id FROM idempotency_keys WHERE agent_id = :agentId AND key = :key',
        { agentId, key }
      )
      return row ? { requestHash: row.request_hash, batchId: row.batch_id, orderId: row.order_id } : null
    },

    /** False when another request holds the key already. */
    recordKey: async (k: { agentId: number; key: string; hash: string; batchId: number }, t: Transaction): Promise<boolean> => {
      const [mine] = await q<{ key: string }>(
        `INSERT INTO idempotency_keys (agent_id, key, request_hash, batch_id) VALUES (:agentId, :key, :hash, :batchId)
             ON CONFLICT (agent_id, key) DO NOTHING RETURNING key`,
        { ...k },
        t
      )
      return !!mine
    }
  }
}
