import Joi from 'joi'
import type { Transaction } from 'sequelize'
import { badRequest } from '../../lib/errors.ts'
import type { Pesewas } from '../../lib/money.ts'
import { parseGhanaMobile } from '../../lib/phone.ts'
import { NETWORKS, orList, VOUCHER_RE } from '../../lib/vocabulary.ts'
import { transactionIdSchema, type PaymentView } from '../payments/index.ts'
import type { PackageRow } from '../packages/index.ts'
import type { Quote, StandingRead } from '../pricing/index.ts'
import type { OrderView } from './view.ts'

// What an order takes, what placing one gives back, and the one check every channel's order passes
// (a service's check, not a route's: USSD, WhatsApp, shops and the reseller API place orders too).

export interface PlaceOrderInput {
  packageId?: number
  /** The spec's client names the package by network and size instead of id. */
  network?: string
  dataSizeMB?: number
  recipientNumber: string
  payerPhone?: string | null
  payerNetwork?: string | null
  email?: string | null
  transactionId?: string | number | null
  channel?: 'web' | 'ussd' | 'whatsapp' | 'api'
  callbackUrl?: string | null
  /** A Telecel Cash voucher typed in the same USSD dial, sent when the gateway asks for it. */
  voucher?: string | null
  /** 'wallet': an agent pays at once from its wallet; otherwise the gateway flow of settings. */
  payFrom?: 'wallet' | 'gateway'
  /** The price (GHS) the buyer saw and confirmed: when given, the order is placed at exactly it or refused with 409. */
  price?: number | null
}

/** What a reseller names in an order; the API sets the rest (its channel, paid from the wallet). */
export type ApiOrderInput = Pick<PlaceOrderInput, 'packageId' | 'network' | 'dataSizeMB' | 'recipientNumber'>

/** A placed order as the API shows it, plus its amount in pesewas for channels that print it (USSD) without converting back. */
export interface PlacedOrder {
  order: OrderView
  payment: PaymentView
  amountPesewas: Pesewas
  /** A wallet order's orders_view row as read in its transaction (the reseller API presents it its own way). */
  row?: Record<string, any>
}

/**
 * A row the caller's capability writes in the order's own statement (an API order's Idempotency-Key): its
 * data-modifying CTE over the new order (`source`, the order's CTE), its parameters from `first` on.
 */
export interface WrittenWithOrder {
  cte: (source: string, first: number) => string
  values: unknown[]
  /** Thrown when the CTE wrote nothing (another request holds that row): rolls the order back. */
  refused: () => Error
}

export interface PlaceOptions {
  /**
   * Runs inside a wallet order's transaction once it is paid (the reseller API records its
   * Idempotency-Key there), and inside a phone channel's order transaction (WhatsApp ties the order to its chat).
   */
  andThen?: (orderId: number, transaction: Transaction) => Promise<void>
  /** A visitor's order through an agent's shop: the price the buyer confirmed, fixed on the order. */
  shop?: ShopQuote
  /** Written by a wallet order's own INSERT, in its transaction. */
  writtenWith?: WrittenWithOrder
  /**
   * A check the caller runs meanwhile (its request limit, an Idempotency-Key's earlier use): awaited beside
   * the package read, before anything is written; its refusal is the order's.
   */
  admitted?: Promise<void>
  /** The active package of this id as the caller's own statement read it for this request (null: none); not read again. */
  packageRead?: { id: number; row: PackageRow | null }
  /**
   * The price rule's read as the caller's own statement made it for this request (its agent and package); the price
   * rule uses it for the same agent and package instead of reading them again in the order's transaction.
   */
  standingRead?: StandingRead
  /**
   * Whether the buying agent has a webhook URL, as the caller's own statement read it for this request: false lets a
   * wallet order be written by one autocommitted statement (ADR 0079), which refuses by itself if it has one by then.
   */
  agentHooked?: boolean
}

/** What a shop sale records (ADR 0020): built and checked by services.shops, never from the client. */
export interface ShopQuote {
  shopId: number
  agentId: number
  pricePesewas: number
  agentPricePesewas: number
  /** The shop's agent is a sub-agent: its parent's share of the sale, fixed here too. */
  parent?: Quote['parent']
  /** Runs first in the order's transaction: throws when the price is no longer the one confirmed. */
  recheck(t: Transaction): Promise<void>
}

/** A Ghanaian mobile number however it was typed (0..., 233..., +233 ..., the 9 digits, with spaces), as its local form; `missing` when none was. */
export const ghanaMobile = (missing: string) =>
  Joi.string()
    .trim()
    .required()
    .custom((v: string, h) => {
      const p = parseGhanaMobile(v)
      return p.ok ? p.local : h.message({ custom: p.error })
    })
    .messages({ 'any.required': missing, 'string.empty': missing, 'string.base': missing })

const orderFields = {
  packageId: Joi.number().integer().min(1).max(2_147_483_647).messages({ '*': 'Please select a package' }),
  network: Joi.string()
    .trim()
    .uppercase()
    .valid(...NETWORKS)
    .messages({ '*': `Network must be ${orList(NETWORKS)}` }),
  dataSizeMB: Joi.number().integer().min(1).max(10_000_000).messages({ '*': 'Please select a package' }),
  // A number that can receive data; stored in its local form (0XXXXXXXXX) whatever way it was typed.
  recipientNumber: ghanaMobile('Enter recipient number'),
  payerPhone: Joi.string().allow('', null),
  payerNetwork: Joi.string().allow('', null),
  email: Joi.string().allow('', null).max(254),
  transactionId: transactionIdSchema,
  channel: Joi.string().valid('web', 'ussd', 'whatsapp', 'api').default('web'),
  callbackUrl: Joi.string().uri().allow(null),
  voucher: Joi.string().pattern(VOUCHER_RE).allow(null).messages({ '*': 'Enter the voucher digits' }),
  payFrom: Joi.string().valid('wallet', 'gateway').default('gateway').messages({ '*': 'payFrom must be wallet or gateway' }),
  price: Joi.number().min(0.01).max(100000).allow(null).messages({ '*': 'price must be the amount in GHS you confirmed' })
}

const ORDER_KEYS = Object.keys(orderFields) as (keyof PlaceOrderInput)[]
/**
 * No preferences of its own (fields it does not know are let through, then left out by `checkOrder`) and run
 * without options: joi merges a field's own messages into the preferences it is handed, and keeps that merge only
 * when handed its defaults. Before, `stripUnknown` here and `abortEarly` per call had it merge and compile every
 * field's messages again on each order (about a third of the check's time). The first bad field answers either way.
 */
export const orderSchema = Joi.object<PlaceOrderInput>(orderFields).unknown(true)

const { packageId, network, dataSizeMB, recipientNumber } = orderFields
// Same rules as every channel, but a field the API does not know is refused by name rather than dropped.
// All of an API order's errors are collected. The setting lives on the schema, not in each validate call: Joi merges
// a call's options with the schema's own (its messages recompiled) on every call, but a schema's own once.
export const apiOrderSchema = Joi.object<ApiOrderInput>({ packageId, network, dataSizeMB, recipientNumber })
  .unknown(false)
  .messages({ 'object.unknown': '{#label} is not a field of an order' })
  .prefs({ abortEarly: false })

/** An order as typed, checked: the spec's messages, the package and the recipient named together first. */
export function checkOrder(raw: unknown, schema: Joi.ObjectSchema = orderSchema): PlaceOrderInput {
  const body = (raw ?? {}) as Record<string, unknown>
  // An API order's schema collects all its errors (apiOrderSchema): a field it may not send is named before any other.
  const { value, error } = schema.validate(raw)
  const clean = (e: Joi.ValidationErrorItem) => badRequest(e.message.replace(/"/g, ''))
  // A field the caller may not send is named first: the rest of the answer would not be about what they meant.
  const unknownField = error?.details.find((d) => d.type === 'object.unknown')
  if (unknownField) throw clean(unknownField)
  const noPackage = body.packageId === undefined && (body.network === undefined || body.dataSizeMB === undefined)
  const noRecipient = body.recipientNumber === undefined || String(body.recipientNumber).trim() === ''
  if (noPackage && noRecipient) throw badRequest('Please select package and enter recipient number')
  if (noPackage) throw badRequest('Please select a package')
  if (error) throw clean(error.details[0]!)
  if (schema !== orderSchema) return value
  const known: Record<string, unknown> = {}
  for (const k of ORDER_KEYS) if (value[k] !== undefined) known[k] = value[k]
  return known as unknown as PlaceOrderInput
}
