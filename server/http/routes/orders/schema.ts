import Joi from 'joi'
import { ghanaMobile } from '../../../services/orders/input.ts'

// One schema per endpoint of /api/orders that the route checks itself. Placing an order is checked
// by the orders service instead (its one check, input.ts): USSD, WhatsApp, shops and the reseller
// API place orders too, and every channel must refuse the same input with the same words.

/** GET /api/orders?phoneNumber=: its local form, so either spelling finds the same orders. */
export const lookupQuery = Joi.object<{ phoneNumber: string }>({ phoneNumber: ghanaMobile('Please enter a phone number') }).options({ stripUnknown: true })

/** `:id` of PATCH /api/orders/:id (Complete Order). */
export const orderIdParams = Joi.object<{ id: number }>({
  id: Joi.number().integer().min(1).max(2_147_483_647).required().messages({ '*': 'Invalid order id' })
}).options({ stripUnknown: true })

/** PATCH /api/orders/:id: the client may only ask for SUCCESS (the gateway decides). */
export const finalizeBody = Joi.object<{ paymentStatus: 'SUCCESS' }>({
  paymentStatus: Joi.string().uppercase().valid('SUCCESS').required().messages({ '*': 'paymentStatus must be SUCCESS' })
})
  .options({ stripUnknown: true })
  .messages({ 'object.base': 'paymentStatus must be SUCCESS' })

/** `:id` of the admin's /api/orders/:id/delivered and /retry-delivery: digits only. */
export const adminOrderIdParams = Joi.object<{ id: number }>({
  id: Joi.string()
    .pattern(/^\d{1,10}$/)
    .required()
    .custom((v: string, h) => (Number.isSafeInteger(Number(v)) ? Number(v) : h.error('any.invalid')))
    .messages({ '*': 'Invalid order id' })
}).options({ stripUnknown: true })
