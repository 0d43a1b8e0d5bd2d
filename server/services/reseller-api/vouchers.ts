import crypto from 'node:crypto'
import type { Sequelize } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import type { PurchaseView, VouchersService } from '../vouchers/index.ts'
import type { ApiCaller } from './index.ts'
import { createPurchaseKeyQueries, type PurchaseKeyUse } from './queries-idempotency.ts'

/** A checker purchase through the API, checked at the edge (routes/api-v1/schema.ts). */
export interface ApiVoucherOrderInput {
  productId: number
  quantity: number
}

class KeyTaken extends Error {}

/** /api/v1/vouchers: checker products at the agent's price, and wallet-paid purchases once per Idempotency-Key. */
export function createApiVouchers(deps: { sequelize: Sequelize; vouchers: VouchersService }) {
  const { sequelize, vouchers } = deps
  const queries = createPurchaseKeyQueries(sequelize)
  const keyUse = queries.keyUse

  async function answer(caller: ApiCaller, use: PurchaseKeyUse, hash: string): Promise<PurchaseView> {
    if (use.requestHash !== hash || !use.paymentTransactionId) throw new AppError(422, 'This Idempotency-Key was already used with a different request')
    return vouchers.purchase(use.paymentTransactionId, { user: caller.actor })
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
              const mine = await queries.recordKey({ agentId: caller.agentId, key: idempotencyKey, hash, tid }, transaction)
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
