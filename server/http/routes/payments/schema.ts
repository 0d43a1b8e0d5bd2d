import Joi from 'joi'
import { REFERENCE_RE } from '../../../services/payments/index.ts'

// One schema per endpoint of /api/payment and /api/webhooks/paystack that the route checks itself.
// What a payment takes (amount, purpose, payer) is the payments service's check: every capability
// that collects money (orders, AFA, agents' fees, the wallet, vouchers, bulk) asks it the same way.

/** POST /api/payment/request: which payment (the spec's client sends no type for data bundles). */
export const paymentKindBody = Joi.object<{ type: 'data' | 'afa' | 'afa_registration' }>({
  type: Joi.string().empty(null).valid('data', 'afa', 'afa_registration').default('data').messages({ '*': 'Unknown payment type' })
})

/** POST /api/payment/request for a data bundle: the order's transaction id, when the client names one (the spec's client: digits). */
export const orderPaymentBody = Joi.object<{ transactionId?: string }>({
  transactionId: Joi.any()
    .empty(Joi.valid(null, ''))
    .custom((v, h) => (/^\d{1,15}$/.test(String(v)) ? String(v) : h.error('any.invalid')))
    .messages({ 'any.invalid': 'Transaction ID must be a whole number of up to 15 digits' })
}).options({ stripUnknown: true })

const NO_REFERENCE = 'No payment reference provided'

/** GET /api/webhooks/paystack?reference=|trxref=: the payer back from the checkout. */
export const callbackQuery = Joi.object<{ reference: string }>({
  reference: Joi.string()
    .required()
    .custom((v: string, h) => (REFERENCE_RE.test(v.trim()) ? v.trim() : h.error('any.invalid')))
    .messages({ 'any.required': NO_REFERENCE, 'string.empty': NO_REFERENCE, '*': 'Invalid transaction ID' })
}).options({ stripUnknown: true })
