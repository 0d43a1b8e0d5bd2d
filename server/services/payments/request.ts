import Joi from 'joi'
import crypto from 'node:crypto'
import type { Method } from './provider.ts'
import { VOUCHER_RE } from '../../lib/vocabulary.ts'

// What a payment request takes (checked here for every channel) and what it answers.

export interface PaymentRequestInput {
  purpose: 'data' | 'afa' | 'agent_fee' | 'wallet_topup' | 'voucher' | 'batch'
  amountPesewas: number
  transactionId?: string | number | null
  payerPhone?: string | null
  payerNetwork?: string | null
  email?: string | null
  orderId?: number | null
  afaRegistrationId?: number | null
  agentId?: number | null
  userId?: number | null
  /** Forces a flow (USSD orders are always mobile money); otherwise settings.paymentGateway decides. */
  method?: Method
  /** Where the card checkout sends the payer back (defaults to PUBLIC_URL/payment-callback). */
  callbackUrl?: string | null
  /** The AFA form, kept with the payment so the registration is recorded when it succeeds. */
  afa?: { fullName: string; ghCard: string; phone: string; email?: string | null } | null
  /** Overrides the card e-mail error text (the AFA page has its own). */
  emailMessage?: string
  /** Start the charge in a queued job and answer at once (USSD: the telco drops a slow hop). */
  background?: boolean
  /** A voucher the payer gave up front (USSD): sent when the gateway asks for one, then forgotten. */
  voucher?: string | null
  /** A result-checker purchase: which product and how many cards (settlement allocates them). */
  vouchers?: {
    productId: number
    quantity: number
    unitPesewas: number
    /** Bought in an agent's shop: the shop, its agent and the agent's own price per card, fixed now. */
    shop?: { shopId: number; agentId: number; agentUnitPesewas: number } | null
  } | null
  /** The order was written already marked simulated (services.orders.placeOrder): no UPDATE of it here. */
  orderMarked?: boolean
}

export interface PaymentView {
  transactionId: string
  paymentStatus: string
  extTransactionId: string | null
  message: string
  gateway: 'paystack' | 'ussd'
  provider: string
  providerLabel: string
  authorizationUrl: string | null
  amount: number | null
  purpose: string
  /** The gateway asks the payer for a code (Telecel voucher, OTP, PIN); message says how to get it. */
  needsCode: 'otp' | 'pin' | 'phone' | null
}

export const TRANSACTION_ID_RE = /^\d{1,15}$/
/** Any reference we may be asked about (ours are digits; other flows may use letters too). */
export const REFERENCE_RE = /^[A-Za-z0-9_.=-]{1,64}$/
export const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** A random integer of 15 digits, as the spec's client makes them. */
export function newTransactionId(): string {
  return `${crypto.randomInt(100_000_000, 1_000_000_000)}${String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')}`
}

/** The spec's client sends a random integer of up to 15 digits, as a number or a string. */
export const transactionIdSchema = Joi.any()
  .empty(null)
  .custom((v, helpers) => {
    const text = typeof v === 'number' || typeof v === 'string' ? String(v).trim() : ''
    return TRANSACTION_ID_RE.test(text) ? text : helpers.error('any.invalid')
  })
  .messages({ 'any.invalid': 'Transaction ID must be a whole number of up to 15 digits' })

export const requestSchema = Joi.object<PaymentRequestInput>({
  purpose: Joi.string().valid('data', 'afa', 'agent_fee', 'wallet_topup', 'voucher', 'batch').required(),
  amountPesewas: Joi.number().integer().min(0).max(100_000_000).required(),
  transactionId: transactionIdSchema,
  payerPhone: Joi.string().allow('', null),
  payerNetwork: Joi.string().allow('', null),
  email: Joi.string().allow('', null).max(254),
  orderId: Joi.number().integer().allow(null),
  afaRegistrationId: Joi.number().integer().allow(null),
  agentId: Joi.number().integer().allow(null),
  userId: Joi.number().integer().allow(null),
  method: Joi.string().valid('momo', 'card'),
  callbackUrl: Joi.string().uri().allow(null),
  afa: Joi.object().allow(null).unknown(true),
  emailMessage: Joi.string(),
  background: Joi.boolean(),
  voucher: Joi.string().pattern(VOUCHER_RE).allow(null),
  orderMarked: Joi.boolean(),
  vouchers: Joi.object({
    productId: Joi.number().integer().required(),
    quantity: Joi.number().integer().min(1).max(10).required(),
    unitPesewas: Joi.number().integer().min(1).required(),
    shop: Joi.object({
      shopId: Joi.number().integer().required(),
      agentId: Joi.number().integer().required(),
      agentUnitPesewas: Joi.number().integer().min(1).required()
    }).allow(null)
  }).allow(null)
}).options({ stripUnknown: true })
