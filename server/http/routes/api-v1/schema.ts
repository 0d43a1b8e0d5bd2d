import Joi from 'joi'
import type { ApiVoucherOrderInput } from '../../../services/reseller-api/vouchers.ts'

// What the reseller API checks at the edge, in the order its documentation answers: the
// Idempotency-Key first, then a body that is not the orders' own (placing an order checks its body
// once, in the orders service, for every channel; a batch's lines are checked after its key's replay).

/** What an Idempotency-Key may be. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{1,255}$/

/** The Idempotency-Key header of POST /api/v1/orders, /batches and /vouchers/orders. */
export const idempotencyHeader = Joi.object<{ key: string }>({
  key: Joi.string().pattern(IDEMPOTENCY_KEY).required().messages({
    'any.required': 'Idempotency-Key header is required',
    'string.empty': 'Idempotency-Key header is required',
    'string.pattern.base': 'Idempotency-Key must be 1 to 255 letters, digits or _.:-'
  })
})

/** POST /api/v1/vouchers/orders */
export const voucherOrderBody = Joi.object<ApiVoucherOrderInput>({
  productId: Joi.number().integer().min(1).required().messages({ '*': 'productId must be a checker product id' }),
  quantity: Joi.number().integer().min(1).max(10).default(1).messages({ '*': 'quantity must be from 1 to 10' })
}).options({ stripUnknown: true })
