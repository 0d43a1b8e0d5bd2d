import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'

// The Idempotency-Key of an order (index.ts) and of a checker purchase (vouchers.ts) through the API.

/** A use of a key for a purchase: the request it was for and the payment it made. */
export interface PurchaseKeyUse {
  requestHash: string
  paymentTransactionId: string | null
}

/** A use of a key for an order: the request it was for and the order it made. */
export interface OrderKeyUse {
  requestHash: string
  orderId: number | null
}

/**
 * An order's Idempotency-Key recorded by the order's own statement (a CTE over `source`, the new order;
 * parameters from $first: the agent, the key, the request's hash). Nothing comes back when another request
 * holds the key (it waits for that request's transaction and then writes nothing).
 */
export const orderKeyOfWritten = (source: string, first: number) =>
  `INSERT INTO idempotency_keys (agent_id, key, request_hash, order_id) SELECT $${first}::int, $${first + 1}::text, $${first + 2}::text, ${source}.id FROM ${source}
     ON CONFLICT (agent_id, key) DO NOTHING RETURNING key`

/**
 * An order's Idempotency-Key's earlier use read by another statement the request sends anyway (the API key's, which
 * knows the key's agent): a LEFT JOIN on the agent (`agentSql`) and the key (`keyParam`), its columns, and their row
 * mapped back (null when the key was never used). The same row `keyUse` reads, a round trip and a pool connection sooner.
 */
export const orderKeyUseJoin = (agentSql: string, keyParam: string) => `LEFT JOIN idempotency_keys ik ON ik.agent_id = ${agentSql} AND ik.key = ${keyParam}`
export const ORDER_KEY_USE_COLUMNS = 'ik.request_hash AS key_use_hash, ik.order_id AS key_use_order_id'
export const orderKeyUseOfRow = (r: { key_use_hash?: string | null; key_use_order_id?: number | null }): OrderKeyUse | null =>
  // request_hash is NOT NULL: a null here is the LEFT JOIN's missing row.
  r.key_use_hash == null ? null : { requestHash: r.key_use_hash, orderId: r.key_use_order_id ?? null }

export function createOrderKeyQueries(sequelize: Sequelize) {
  // Read on every wallet order over the API: a named statement (ADR 0024).
  const run = preparedFor(sequelize)
  return {
    keyUse: async (agentId: number, key: string): Promise<OrderKeyUse | null> => {
      const [row] = await run<{ request_hash: string; order_id: number | null }>(
        'SELECT request_hash, order_id FROM idempotency_keys WHERE agent_id = $1 AND key = $2',
        [agentId, key]
      )
      return row ? { requestHash: row.request_hash, orderId: row.order_id } : null
    }
  }
}

export function createPurchaseKeyQueries(sequelize: Sequelize) {
  return {
    keyUse: async (agentId: number, key: string): Promise<PurchaseKeyUse | null> => {
      const [row] = await sequelize.query<{ request_hash: string; payment_transaction_id: string | null }>(
        'SELECT request_hash, payment_transaction_id FROM idempotency_keys WHERE agent_id = :agentId AND key = :key',
        { replacements: { agentId, key }, type: QueryTypes.SELECT }
      )
      return row ? { requestHash: row.request_hash, paymentTransactionId: row.payment_transaction_id } : null
    },

    /** False when another request holds the key already. */
    recordKey: async (k: { agentId: number; key: string; hash: string; tid: string }, transaction: Transaction): Promise<boolean> => {
      const [mine] = await sequelize.query(
        `INSERT INTO idempotency_keys (agent_id, key, request_hash, payment_transaction_id) VALUES (:agentId, :key, :hash, :tid)
               ON CONFLICT (agent_id, key) DO NOTHING RETURNING key`,
        { replacements: { ...k }, type: QueryTypes.SELECT, transaction }
      )
      return !!mine
    }
  }
}
