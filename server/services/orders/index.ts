import Joi from 'joi'
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Models, OrderRow } from '../../../models/index.ts'
import { isUniqueViolation, preparedFor } from '../../../models/prepared.ts'
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import { toGhs, toPesewas, type Pesewas } from '../../lib/money.ts'
import { parseGhanaMobile, phoneVariants } from '../../lib/phone.ts'
import type { AuditService } from '../audit/index.ts'
import { forLookup, presentOrder, type OrderView } from './view.ts'
import type { Actor, Ctx } from '../context.ts'
import type { PackageRow, PackagesService } from '../packages/index.ts'
import type { PricingService, Quote } from '../pricing/index.ts'
import { methodOf, newTransactionId, transactionIdSchema, type PaymentsService, type PaymentView } from '../payments/index.ts'
import { isActiveAgent, NETWORKS, orList, VOUCHER_RE } from '../../lib/vocabulary.ts'
import { SETTINGS_VERSION_SQL, type Settings, type SettingsService } from '../settings/index.ts'
import type { WalletService } from '../wallet/index.ts'

export const PURCHASES_DISABLED = 'Purchases are temporarily disabled'
export const FINALIZE_NEEDS_SUCCESS = 'Payment must be successful before finalizing order'
export const PRICE_CHANGED = 'The price of this bundle has changed. Please check the new price and confirm again.'

export type { OrderView } from './view.ts'

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

const orderFields = {
  packageId: Joi.number().integer().min(1).max(2_147_483_647).messages({ '*': 'Please select a package' }),
  network: Joi.string()
    .trim()
    .uppercase()
    .valid(...NETWORKS)
    .messages({ '*': `Network must be ${orList(NETWORKS)}` }),
  dataSizeMB: Joi.number().integer().min(1).max(10_000_000).messages({ '*': 'Please select a package' }),
  // A number that can receive data; stored in its local form (0XXXXXXXXX) whatever way it was typed.
  recipientNumber: Joi.string()
    .trim()
    .required()
    .custom((v: string, h) => {
      const p = parseGhanaMobile(v)
      return p.ok ? p.local : h.message({ custom: p.error })
    })
    .messages({
      'any.required': 'Enter recipient number',
      'string.empty': 'Enter recipient number',
      'string.base': 'Enter recipient number'
    }),
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

const orderSchema = Joi.object<PlaceOrderInput>(orderFields).options({ stripUnknown: true })

/** What a reseller names in an order; the API sets the rest (its channel, paid from the wallet). */
export type ApiOrderInput = Pick<PlaceOrderInput, 'packageId' | 'network' | 'dataSizeMB' | 'recipientNumber'>
const { packageId, network, dataSizeMB, recipientNumber } = orderFields
// Same rules as every channel, but a field the API does not know is refused by name rather than dropped.
const apiOrderSchema = Joi.object<ApiOrderInput>({ packageId, network, dataSizeMB, recipientNumber })
  .unknown(false)
  .messages({ 'object.unknown': '{#label} is not a field of an order' })

/** A placed order as the API shows it, plus its amount in pesewas for channels that print it (USSD) without converting back. */
export interface PlacedOrder {
  order: OrderView
  payment: PaymentView
  amountPesewas: Pesewas
  /** A wallet order's orders_view row as read in its transaction (the reseller API presents it its own way). */
  row?: Record<string, any>
}

export interface PlaceOptions {
  /**
   * Runs inside a wallet order's transaction once it is paid (the reseller API records its
   * Idempotency-Key there), and inside a phone channel's order transaction (WhatsApp ties the order to its chat).
   */
  andThen?: (orderId: number, transaction: Transaction) => Promise<void>
  /** A visitor's order through an agent's shop: the price the buyer confirmed, fixed on the order. */
  shop?: ShopQuote
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

interface InsertOptions {
  /** The number the payment prompt goes to (mobile money). */
  payerPhone?: string | null
  shop?: ShopQuote
  /** Written marked simulated: its payment follows at once from the payment simulator. */
  simulated?: boolean
  andThen?: (order: any, transaction: Transaction) => Promise<void>
}

const INSERT_ORDER = `INSERT INTO orders (user_id, agent_id, shop_id, shop_agent_id, shop_price_pesewas, shop_agent_price_pesewas, shop_margin_pesewas,
    package_id, package_name, recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id,
    payment_phone_number, channel, simulated, parent_agent_id, parent_price_pesewas, parent_margin_pesewas)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'PENDING', $14, $15, $16, $17, $18, $19, $20)
  RETURNING *, ${SETTINGS_VERSION_SQL} AS settings_version`

/** A row as pg returns it (snake_case columns) with the keys its model would use (camelCase). */
function camelKeys(row: Record<string, unknown>): any {
  const out: Record<string, unknown> = {}
  for (const key in row) out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = row[key]
  return out
}

const STATUS_INFO: Record<string, string> = {
  PENDING: 'The payment has not been confirmed yet. Approve the prompt on your phone, then try again.',
  IN_PROGRESS: 'The payment is still in progress. Complete it on your phone, then try again.',
  FAILED: 'The payment failed. You can retry the payment.',
  EXPIRED: 'The payment expired before it was completed. Please place a new order.'
}

export type OrdersService = ReturnType<typeof createOrdersService>

export function createOrdersService(deps: {
  sequelize: Sequelize
  models: Models
  settings: SettingsService
  audit: AuditService
  packages: PackagesService
  payments: PaymentsService
  wallet: WalletService
  pricing: PricingService
}) {
  const { sequelize, models, settings, audit, packages, payments, wallet, pricing } = deps
  const run = preparedFor(sequelize)
  /** The caller's transaction when it holds one, else a new one. */
  const within = <T>(ctx: Ctx, fn: (t: Transaction) => Promise<T>) => (ctx.transaction ? fn(ctx.transaction) : sequelize.transaction(fn))

  /** Inputs that passed validate(): placeOrder takes them as they are, so an order is validated once. */
  const validated = new WeakSet<object>()

  function validate(raw: unknown, schema: Joi.ObjectSchema = orderSchema): PlaceOrderInput {
    const body = (raw ?? {}) as Record<string, unknown>
    const { value, error } = schema.validate(raw, { abortEarly: false })
    const clean = (e: Joi.ValidationErrorItem) => badRequest(e.message.replace(/"/g, ''))
    // A field the caller may not send is named first: the rest of the answer would not be about what they meant.
    const unknownField = error?.details.find((d) => d.type === 'object.unknown')
    if (unknownField) throw clean(unknownField)
    const noPackage = body.packageId === undefined && (body.network === undefined || body.dataSizeMB === undefined)
    const noRecipient = body.recipientNumber === undefined || String(body.recipientNumber).trim() === ''
    if (noPackage && noRecipient) throw badRequest('Please select package and enter recipient number')
    if (noPackage) throw badRequest('Please select a package')
    if (error) throw clean(error.details[0]!)
    validated.add(value)
    return value
  }

  /** Only approved agents whose fee is paid may buy as agents. */
  function assertMayBuy(actor: Actor | null | undefined) {
    if (actor?.role === 'AGENT' && !isActiveAgent(actor.agent)) {
      throw forbidden('Your agent account must be paid and approved before you can place orders')
    }
  }

  /**
   * The settings a request goes by, read once: the cached copy (a save drops it on every instance by
   * NOTIFY). The order's INSERT returns the saved row's version, and insertOrder checks the platform
   * is still open against the row as saved then, so a closed shop sells nothing even before NOTIFY came.
   */
  async function openSettings(): Promise<Settings> {
    const s = await settings.get()
    if (!s.platformOpen) throw forbidden(PURCHASES_DISABLED)
    return s
  }

  async function resolvePackage(input: PlaceOrderInput): Promise<PackageRow> {
    const pkg = input.packageId !== undefined ? await packages.getActive(input.packageId) : await packages.findActiveBySize(input.network!, input.dataSizeMB!)
    if (!pkg) throw badRequest('Please select a package')
    if (input.packageId !== undefined && input.network && input.network !== pkg.network) throw badRequest('Please select a package')
    return pkg
  }

  async function assertFreshTransactionId(tid: string) {
    // Every order placed asks this: a named statement (ADR 0024).
    const [used] = await run<{ n: number }>(
      `SELECT 1 AS n FROM orders WHERE payment_transaction_id = $1 UNION ALL SELECT 1 FROM payments WHERE transaction_id = $1 LIMIT 1`,
      [tid]
    )
    if (used) throw conflict('Transaction ID already used. Please try again.')
  }

  /**
   * The PENDING order at the server's price, with its ORDER_CREATED audit entry, in one transaction
   * (the caller's, when it holds one); `andThen` runs in it too (paying from the wallet). The row comes
   * back with camelCase keys, as a model's would.
   */
  async function insertOrder(pkg: PackageRow, input: PlaceOrderInput, tid: string, ctx: Ctx, opts: InsertOptions = {}) {
    const { shop, andThen } = opts
    const actor = ctx.user ?? null
    try {
      return await within(ctx, async (transaction) => {
        await shop?.recheck(transaction)
        // A shop order is the shop's sale at the price its buyer confirmed, never an agent's own order.
        // Otherwise THE price rule, read in this transaction (a parent's price change waits for it: ADR 0041).
        const quote: Quote = shop
          ? { pricePesewas: shop.pricePesewas, parent: shop.parent ?? null }
          : await pricing.priceFor(actor, pkg, { transaction, lock: true })
        const amountPesewas = quote.pricePesewas
        // A package priced 0 (made before prices had to be positive) would be "paid" at once with nothing: never sold.
        if (!(amountPesewas >= 1)) throw badRequest('This package is not available for purchase')
        if (!shop && input.price !== undefined && input.price !== null && toPesewas(input.price) !== amountPesewas) {
          throw new AppError(409, PRICE_CHANGED, { price: toGhs(amountPesewas) })
        }
        const parent = quote.parent
        // Every order placed writes one: a named statement, no model instance (ADR 0024).
        const [row] = await run(
          INSERT_ORDER,
          [
            actor?.id ?? null,
            !shop && actor?.role === 'AGENT' ? (actor.agent?.id ?? null) : null,
            shop?.shopId ?? null,
            shop?.agentId ?? null,
            shop?.pricePesewas ?? null,
            shop?.agentPricePesewas ?? null,
            shop ? shop.pricePesewas - shop.agentPricePesewas : null,
            pkg.id,
            packages.present(pkg).name,
            input.recipientNumber,
            pkg.network,
            pkg.sizeMb,
            amountPesewas,
            tid,
            opts.payerPhone ?? null,
            input.channel ?? 'web',
            !!opts.simulated,
            parent?.agentId ?? null,
            parent?.pricePesewas ?? null,
            parent?.marginPesewas ?? null
          ],
          transaction
        )
        // The settings as saved now, without a read unless they changed since the copy this request used.
        const { settings_version: version, ...written } = row
        if (!(await settings.freshAt(version, { transaction })).platformOpen) throw forbidden(PURCHASES_DISABLED)
        const order = camelKeys(written)
        await audit.record(
          {
            action: 'ORDER_CREATED',
            resource: 'ORDER',
            resourceId: order.id,
            details: {
              transactionId: tid,
              network: pkg.network,
              dataSizeMB: pkg.sizeMb,
              amount: toGhs(amountPesewas),
              recipientNumber: input.recipientNumber,
              channel: order.channel,
              ...(shop ? { shopId: shop.shopId, agentPrice: toGhs(shop.agentPricePesewas), margin: toGhs(shop.pricePesewas - shop.agentPricePesewas) } : {}),
              ...(parent ? { parentAgentId: parent.agentId, parentMargin: toGhs(parent.marginPesewas) } : {})
            }
          },
          { ...ctx, transaction }
        )
        await andThen?.(order, transaction)
        return order
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Transaction ID already used. Please try again.')
      throw err
    }
  }

  function assertMayTouch(order: Pick<OrderRow, 'userId'>, ctx: Ctx) {
    if (order.userId && ctx.user?.role !== 'ADMIN' && ctx.user?.id !== order.userId) throw notFound('Order not found')
  }

  /**
   * Wallet orders: the order, its wallet payment, the debit and settlement to SUCCESS in one
   * transaction; a balance that does not cover it rolls the order back too (402, nothing written).
   */
  async function placeWalletOrder(pkg: PackageRow, input: PlaceOrderInput, ctx: Ctx, current: Settings, opts: PlaceOptions = {}): Promise<PlacedOrder> {
    if (ctx.user?.role !== 'AGENT' || !ctx.user.agent) throw forbidden('Only agents can pay from a wallet')
    // A used transaction id: the unique indexes of orders and payments refuse it in the one transaction (409, nothing kept).
    const tid = input.transactionId !== undefined && input.transactionId !== null ? String(input.transactionId) : newTransactionId()
    let placed: PlacedOrder | undefined
    await insertOrder(pkg, input, tid, ctx, {
      simulated: payments.isSimulator,
      andThen: async (o, transaction) => {
        const paid = await wallet.payOrder(
          { id: o.id, agentId: o.agentId, userId: o.userId, amountPesewas: o.amountPesewas, paymentTransactionId: tid, marked: true },
          { ...ctx, transaction },
          current
        )
        // The answer is read before the commit, once: once the money has moved, a connection lost on
        // a later read must not tell the agent it failed (and invite a second, paid order).
        const [row] = await run('SELECT * FROM orders_view WHERE id = $1', [o.id], transaction)
        placed = { order: presentOrder(row), payment: payments.present(paid), amountPesewas: o.amountPesewas, row }
        await opts.andThen?.(o.id, transaction)
      }
    })
    return placed!
  }

  return {
    presentOrder,

    /** A reseller's order checked once, ready for placeOrder: paid from the agent's wallet through the API channel. */
    parseApiOrder(raw: unknown): PlaceOrderInput & ApiOrderInput {
      const input = validate(raw && typeof raw === 'object' ? raw : {}, apiOrderSchema)
      const order = { ...input, channel: 'api' as const, payFrom: 'wallet' as const }
      validated.add(order)
      return order
    },

    /** Creates the PENDING order at the server's price and asks for the payment (mobile money or card per settings). */
    async placeOrder(raw: PlaceOrderInput, ctx: Ctx = {}, opts: PlaceOptions = {}): Promise<PlacedOrder> {
      // A closed shop says so first, whatever was typed. Read before any transaction opens: nothing
      // inside one may wait for a second pool connection.
      const s = await openSettings()
      const input = validated.has(raw) ? raw : validate(raw)
      // A shop's buyer is its customer, whoever is signed in; agent rules are for agents' own orders.
      if (!opts.shop) assertMayBuy(ctx.user)
      const pkg = await resolvePackage(input)
      if (opts.shop && input.payFrom === 'wallet') throw badRequest('Shop orders are paid by mobile money or card')
      if (input.payFrom === 'wallet') return placeWalletOrder(pkg, input, ctx, s, opts)
      // Phone channels answer within seconds and pay by mobile money; their charge starts in a queued job.
      const background = input.channel === 'ussd' || input.channel === 'whatsapp'
      const method = background ? 'momo' : methodOf(s)
      const payer = payments.payerFor(method, input, ctx)
      const tid = input.transactionId !== undefined && input.transactionId !== null ? String(input.transactionId) : newTransactionId()
      // The payment follows at once, so the order is written already marked when no real money moves.
      const simulated = payments.isSimulator
      const insert = { payerPhone: payer.phone, shop: opts.shop, simulated }
      const paymentFields = (order: any) => ({
        purpose: 'data' as const,
        amountPesewas: order.amountPesewas,
        transactionId: tid,
        payerPhone: input.payerPhone,
        payerNetwork: input.payerNetwork,
        email: input.email,
        orderId: order.id,
        userId: ctx.user?.id ?? null,
        method,
        callbackUrl: input.callbackUrl,
        background,
        voucher: input.voucher ?? null,
        orderMarked: simulated
      })
      if (background) {
        // A phone channel's caller may hold a transaction of its own: a used id is refused before anything is written in it.
        await assertFreshTransactionId(tid)
        // USSD, WhatsApp: the charge starts in a queued job, so the order, its payment and that job are one
        // transaction (one commit); nothing touches the order before the hop answers, so no read back.
        return within(ctx, async (transaction) => {
          const order = await insertOrder(pkg, input, tid, { ...ctx, transaction }, insert)
          const payment = await payments.request(paymentFields(order), { ...ctx, transaction })
          await opts.andThen?.(order.id, transaction)
          return { order: presentOrder(order), payment, amountPesewas: order.amountPesewas }
        })
      }
      // Now (web, shops): the order, its audit entry and its payment, claimed for its start, are one
      // transaction (one commit; a used transaction id is refused there by the unique indexes, 409); the gateway is called after it, outside any transaction, so its
      // webhook finds the row (ADR 0046). A payment that cannot be written rolls the order back with it.
      const { order, row } = await sequelize.transaction(async (transaction) => {
        const order = await insertOrder(pkg, input, tid, { ...ctx, transaction }, insert)
        return { order, row: await payments.open(paymentFields(order), { ...ctx, transaction }) }
      })
      const payment = await payments.charge(row, ctx)
      // The gateway's answer moved an open payment and its order together (IN_PROGRESS) in the
      // statement that saved it; only a start that ended the payment changed the order elsewhere.
      const now =
        payment.paymentStatus === 'PENDING' || payment.paymentStatus === 'IN_PROGRESS'
          ? { ...order, paymentStatus: payment.paymentStatus }
          : (await models.Order.findByPk(order.id))!.get({ plain: true })
      return { order: presentOrder(now), payment, amountPesewas: order.amountPesewas }
    },

    /** The spec's two-step client: the order first (POST /api/orders), the payment next (POST /api/payment/request). */
    async createOrder(raw: PlaceOrderInput, ctx: Ctx = {}, opts: PlaceOptions = {}): Promise<OrderView> {
      // A closed shop says so first, whatever was typed.
      await openSettings()
      const input = validated.has(raw) ? raw : validate(raw)
      // A shop's buyer is its customer, whoever is signed in (as in placeOrder).
      if (!opts.shop) assertMayBuy(ctx.user)
      const pkg = await resolvePackage(input)
      const tid = input.transactionId !== undefined && input.transactionId !== null ? String(input.transactionId) : newTransactionId()
      await assertFreshTransactionId(tid)
      const { andThen } = opts
      const created = await insertOrder(pkg, input, tid, ctx, { shop: opts.shop, andThen: andThen && ((o, t) => andThen(o.id, t)) })
      // The payment step that follows (POST /api/payment/request) is this browser's alone.
      ctx.browser?.remember(tid)
      return presentOrder(created)
    },

    /** Payment for an order made by createOrder; the amount is the order's, never the client's. */
    async requestPaymentForOrder(
      input: { transactionId: string; payerPhone?: string | null; payerNetwork?: string | null; email?: string | null; callbackUrl?: string | null },
      ctx: Ctx = {}
    ) {
      const s = await openSettings()
      const row = await models.Order.findOne({ where: { paymentTransactionId: String(input.transactionId) } })
      if (!row) return null
      const order = row.get({ plain: true })
      assertMayTouch(order, ctx)
      // A visitor's order is paid from the browser that placed it: its transaction id alone is not enough.
      if (!order.userId && ctx.browser && !ctx.browser.owns(String(input.transactionId))) throw notFound('Order not found')
      if (order.paymentStatus !== 'PENDING') throw conflict('This order is no longer awaiting payment. Please start a new order.')
      const method = methodOf(s)
      const payer = payments.payerFor(method, input, ctx)
      if (payer.phone) await row.update({ paymentPhoneNumber: payer.phone })
      return payments.request(
        {
          purpose: 'data',
          amountPesewas: order.amountPesewas,
          transactionId: order.paymentTransactionId,
          payerPhone: input.payerPhone,
          payerNetwork: input.payerNetwork,
          email: input.email,
          orderId: order.id,
          userId: order.userId,
          method,
          callbackUrl: input.callbackUrl
        },
        ctx
      )
    },

    /** Orders whose recipient (or, for a visitor's purchase, paying phone) is this number (either spelling), newest first. */
    async lookupByPhone(phone: unknown, ctx: Ctx = {}): Promise<OrderView[]> {
      const typed = String(phone ?? '').trim()
      if (!typed) throw badRequest('Please enter a phone number')
      // However it was typed (0..., 233..., +233 ..., the 9 digits, with spaces): the same number.
      const parsed = parseGhanaMobile(typed)
      if (!parsed.ok) throw badRequest(parsed.error)
      const variants = phoneVariants(parsed.local)
      const rows = await sequelize.query<any>(
        // An agent's orders match only their recipient: the agent's own number must not list every customer
        // the agent bought for. A visitor's purchase matches either number.
        `SELECT * FROM orders_view WHERE recipient_number IN (:v) OR (agent_id IS NULL AND payment_phone_number IN (:v))
         ORDER BY created_at DESC, id DESC LIMIT 100`,
        { replacements: { v: variants }, type: QueryTypes.SELECT }
      )
      const seenBy = { owns: (tid: string) => !!ctx.browser?.owns(tid), userId: ctx.user?.id ?? null }
      return rows.map((r) => forLookup(presentOrder(r), r.user_id ?? null, seenBy))
    },

    /**
     * "Complete Order": the client may only ask; the gateway decides. An open payment is checked with
     * the gateway first (settled the one exactly-once way), then the order's status is reported.
     */
    async finalize(id: unknown, body: unknown, ctx: Ctx = {}) {
      const orderId = Number(id)
      if (!Number.isSafeInteger(orderId) || orderId <= 0 || orderId > 2_147_483_647) throw badRequest('Invalid order id')
      const wanted = String((body as Record<string, unknown> | null)?.paymentStatus ?? '').toUpperCase()
      if (wanted !== 'SUCCESS') throw badRequest('paymentStatus must be SUCCESS')
      let row = await models.Order.findByPk(orderId)
      if (!row) throw notFound('No order ID found. Please try the payment process again.')
      assertMayTouch(row.get({ plain: true }), ctx)
      const tid = row.get('paymentTransactionId') as string | null
      if (tid && !['SUCCESS', 'FAILED', 'EXPIRED'].includes(row.get('paymentStatus') as string)) {
        await payments.refresh(tid)
        row = (await models.Order.findByPk(orderId))!
      }
      const order = row.get({ plain: true })
      const s = await settings.get()
      if (order.paymentStatus === 'SUCCESS') {
        return {
          message: order.agentId ? s.agentSuccessMessage : s.buySuccessMessage,
          currentStatus: 'SUCCESS',
          info: 'Payment confirmed. Your data will be delivered shortly.'
        }
      }
      // Only the status: order ids are sequential, so the answer must not carry the order's phone numbers.
      return { message: FINALIZE_NEEDS_SUCCESS, currentStatus: order.paymentStatus, info: STATUS_INFO[order.paymentStatus] ?? '' }
    },

    async get(id: number, ctx: Ctx = {}): Promise<OrderView> {
      const row = await models.OrderView.findByPk(id)
      if (!row) throw notFound('Order not found')
      assertMayTouch(row.get({ plain: true }), ctx)
      return presentOrder(row.get({ plain: true }))
    }
  }
}
