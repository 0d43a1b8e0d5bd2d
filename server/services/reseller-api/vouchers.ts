import crypto from 'node:crypto'
import { QueryTypes, type Sequelize } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import type { PurchaseView, VouchersService } from '../vouchers/index.ts'
import type { ApiCaller } from './index.ts'

/** A checker purchase through the API, checked at the edge (routes/api-v1/schema.ts). */
export interface ApiVoucherOrderInput {
  productId: number
  quantity: number
}

class KeyTaken extends Error {}

/** /api/v1/vouchers: checker products at the agent's price, and wallet-paid purchases once per Idempotency-Key. */
export function createApiVouchers(deps: { sequelize: Sequelize; vouchers: VouchersService }) {
  const { sequelize, vouchers } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
  const keyUse = async (agentId: number, key: string) =>
    (
      await q<{ request_hash: string; payment_transaction_id: string | null }>(
        'SELECT request_hash, payment_transaction_id FROM idempotency_keys WHERE agent_id = :agentId AND key = :key',
        { agentId, key }
      )
    )[0] ?? null

  async function answer(caller: ApiCaller, use: { request_hash: string; payment_transaction_id: string | null }, hash: string): Promise<PurchaseView> {
    if (use.request_hash !== hash || !use.payment_transaction_id) throw new AppError(422, 'This Idempotency-Key was already used with a different request')
    return vouchers.purchase(use.payment_transaction_id, { user: caller.actor })
  }

  return {
    async listProducts(caller: ApiCaller) {
      const products = await vouchers.products.listPublic(caller.actor)
      return {
        products: products.map((p) => ({ id: p.id, name: p.name, price: p.price, inStock: p.inStock, howToUse: p.howToUse, checkingUrl: p.checkingUrl }))
      }
    },

    /** Paid from the wallet; the key is recorded in the purchase's transaction, so it exists exactly when the purchase does. */
    async createOrder(caller: ApiCaller, idempotencyKey: string, value: ApiVoucherOrderInput): Promise<{ purchase: PurchaseView; replayed: boolean }> {
      const hash = crypto.createHash('sha256').update(`vouchers:${value.productId}:${value.quantity}`).digest('hex')
      const seen = await keyUse(caller.agentId, idempotencyKey)
      if (seen) return { purchase: await answer(caller, seen, hash), replayed: true }
      try {
        const { transactionId } = await vouchers.buyFromWallet(
          { productId: value.productId, quantity: value.quantity },
          { user: caller.actor },
          {
            andThen: async (tid, transaction) => {
              const [mine] = await sequelize.query(
                `INSERT INTO idempotency_keys (agent_id, key, request_hash, payment_transaction_id) VALUES (:agentId, :key, :hash, :tid)
               ON CONFLICT (agent_id, key) DO NOTHING RETURNING key`,
                { replacements: { agentId: caller.agentId, key: idempotencyKey, hash, tid }, type: QueryTypes.SELECT, transaction }
              )
              if (!mine) throw new KeyTaken()
            }
          }
        )
        return { purchase: await vouchers.purchase(transactionId, { user: caller.actor }), replayed: false }
      } catch (err) {
        if (!(err instanceof KeyTaken)) throw err
        return { purchase: await answer(caller, (await keyUse(caller.agentId, idempotencyKey))!, hash), replayed: true }
      }
    }
  }
}
