import Joi from 'joi'
import type { SoldListInput } from '../../../services/vouchers/admin.ts'
import type { ProductInput } from '../../../services/vouchers/products.ts'
import type { UploadInput } from '../../../services/vouchers/stock.ts'

// One schema per admin endpoint of /api/vouchers that takes input, bound to the type its service takes.
// Buying keeps its one check in the vouchers service, shared by the web, shops, USSD and the API, and
// "My checkers" answers every bad lookup as a miss, after the same work.

/** GET /api/vouchers/admin/sold */
export const soldQuery = Joi.object<SoldListInput>({
  productId: Joi.number().integer().min(1).allow('', null),
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(50)
}).options({ stripUnknown: true, convert: true })

/** `:id` of POST /api/vouchers/admin/cards/:id/void, checked before the body as it always was. */
export const cardIdParams = Joi.object<{ id: number }>({
  id: Joi.number().integer().min(1).required().messages({ '*': 'Invalid card' })
}).options({ stripUnknown: true })

/** POST /api/vouchers/admin/cards/:id/void */
export const voidBody = Joi.object<{ reason: string }>({
  reason: Joi.string().trim().min(3).max(300).required().messages({ '*': 'A reason of at least 3 characters is required' })
}).options({ stripUnknown: true })

const ghsField = Joi.number().positive().max(100000).precision(2)

/** POST /api/vouchers/admin/products and PUT /api/vouchers/admin/products/:id */
export const productBody = Joi.object<ProductInput>({
  name: Joi.string().trim().min(2).max(80).required().messages({ '*': 'Name must be 2 to 80 characters' }),
  howToUse: Joi.string().trim().allow('').max(500).default('').messages({ '*': 'How to use must be at most 500 characters' }),
  checkingUrl: Joi.string()
    .trim()
    .allow('')
    .max(300)
    .uri({ scheme: ['https', 'http'] })
    .default('')
    .messages({ '*': 'Checking site must be a web address (https://...)' }),
  priceUser: ghsField.required().messages({ '*': 'User price must be an amount in GHS greater than 0' }),
  priceAgent: ghsField.allow(null, '').default(null).messages({ '*': 'Agent price must be an amount in GHS greater than 0, or empty' }),
  shopCeiling: ghsField.allow(null, '').default(null).messages({ '*': 'Agent-shop ceiling must be an amount in GHS greater than 0, or empty' }),
  active: Joi.boolean().default(true),
  lowStockThreshold: Joi.number().integer().min(0).max(100000).default(10).messages({ '*': 'Low-stock threshold must be a whole number of 0 or more' })
}).options({ stripUnknown: true, convert: true })

/** POST /api/vouchers/admin/stock */
export const uploadBody = Joi.object<UploadInput>({
  productId: Joi.number().integer().min(1).required().messages({ '*': 'Choose a product' }),
  format: Joi.string().valid('csv', 'paste', 'xlsx').default('paste').messages({ '*': 'Format must be csv, xlsx or paste' }),
  content: Joi.string()
    .max(140_000)
    .required()
    .messages({ 'string.max': 'The file is too large: upload at most 2000 cards at a time', '*': 'Paste the cards or choose a file' })
}).options({ stripUnknown: true })
