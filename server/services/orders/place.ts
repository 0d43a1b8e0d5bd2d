import type { Sequelize, Transaction } from 'sequelize'
import type { OrderRow } from '../../../models/index.ts'
import { isUniqueViolation } from '../../../models/prepared.ts'
import { committedAlready, transactionOn } from '../../../models/transaction.ts'
import { AppError, badRequest, conflict, forbidden } from '../../lib/errors.ts'
import { toGhs, toPesewas } from '../../lib/money.ts'
import { isActiveAgent } from '../../lib/vocabulary.ts'
import type { AuditService } from '../audit/index.ts'
import type { Actor, Ctx } from '../context.ts'
import type { PackageRow, PackagesService } from '../packages/index.ts'
import { methodOf, newTransactionId, type PaymentRequestInput, type PaymentRow, type PaymentsService, type PaymentView } from '../payments/index.ts'
import type { PricingService, Quote } from '../pricing/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import type { OrderPaymentCtes, WalletService, WrittenPayment } from '../wallet/index.ts'
import {
  apiOrderSchema,
  checkOrder,
  type ApiOrderInput,
  type PlacedOrder,
  type PlaceOptions,
  type PlaceOrderInput,
  type ShopQuote,
  type WrittenWithOrder
} from './input.ts'
import { orderColumns, type OrderColumnOptions } from './order-columns.ts'
import { ALONE_REFUSED, aloneRefusalOf, type NewOrder, type OrderQueries } from './queries.ts'
import { presentOrder, type OrderView } from './view.ts'

export const PURCHASES_DISABLED = 'Purchases are temporarily disabled'
export { PRICE_CHANGED } from './order-columns.ts'

interface InsertOptions extends OrderColumnOptions {
  /** Runs in the order's transaction once it is written; `paid`: what `paidWith` wrote, `view`: the order's orders_view row as written then. */
  andThen?: (order: OrderRow, transaction: Transaction, paid?: WrittenPayment, view?: Record<string, any>) => Promise<void>
  writtenWith?: WrittenWithOrder
  /** A wallet order's payment and debit, written by the order's own statement (the order's columns as they will be written). */
  paidWith?: (order: NewOrder) => OrderPaymentCtes
  /** The price rule's read made for this request by the caller's own statement (`PlaceOptions.standingRead`). */
  standingRead?: PlaceOptions['standingRead']
  /**
   * A wallet order that may be written by one autocommitted statement (ADR 0079), while the settings row is still the
   * version of the copy the request went by; `andThen` then runs after its commit, in `committedAlready`'s transaction.
   */
  alone?: { settingsVersion: string }
}

export interface PlacingDeps {
  sequelize: Sequelize
  settings: SettingsService
  audit: AuditService
  packages: PackagesService
  payments: PaymentsService
  wallet: WalletService
  pricing: PricingService
  queries: OrderQueries
}

/** The caller's transaction when it holds one, else a new one (its START TRANSACTION and COMMIT sent straight on its connection). */
export const within = <T>(sequelize: Sequelize, ctx: Ctx, fn: (t: Transaction) => Promise<T>) =>
  ctx.transaction ? fn(ctx.transaction) : transactionOn(sequelize, fn)

const tidOf = (input: PlaceOrderInput) => (input.transactionId !== undefined && input.transactionId !== null ? String(input.transactionId) : newTransactionId())

/**
 * Placing an order, by every channel: the one check of its input, the server's price, the PENDING
 * row with its audit entry, and its payment (gateway, wallet, or the spec's two-step client's later call).
 */
export function createPlacing(deps: PlacingDeps) {
  const { sequelize, settings, audit, packages, payments, wallet, pricing, queries } = deps

  /** Inputs that passed the check: placeOrder takes them as they are, so an order is validated once. */
  const validated = new WeakSet<object>()
  const checked = (raw: PlaceOrderInput) => {
    if (validated.has(raw)) return raw
    const input = checkOrder(raw)
    validated.add(input)
    return input
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

  /** The package asked for, read while the caller's own check (`admitted`: a request limit, an Idempotency-Key) runs: one round trip for both. */
  async function resolvePackage(input: PlaceOrderInput, admitted?: Promise<void>, known?: PlaceOptions['packageRead']): Promise<PackageRow> {
    const read =
      input.packageId === undefined
        ? packages.findActiveBySize(input.network!, input.dataSizeMB!)
        : known?.id === input.packageId
          ? known.row
          : packages.getActive(input.packageId)
    const [pkg] = await Promise.all([read, admitted])
    if (!pkg) throw badRequest('Please select a package')
    if (input.packageId !== undefined && input.network && input.network !== pkg.network) throw badRequest('Please select a package')
    return pkg
  }

  async function assertFreshTransactionId(tid: string) {
    if (await queries.transactionIdUsed(tid)) throw conflict('Transaction ID already used. Please try again.')
  }

  /** A used transaction id, however the unique indexes of orders and payments said so: 409. */
  async function refusingUsedIds<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn()
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Transaction ID already used. Please try again.')
      throw err
    }
  }

  /**
   * The PENDING order at the server's price, with its ORDER_CREATED audit entry (one statement), in one transaction
   * (the caller's, when it holds one); `andThen` runs in it too (paying from the wallet).
   */
  async function insertOrder(pkg: PackageRow, input: PlaceOrderInput, tid: string, ctx: Ctx, opts: InsertOptions = {}): Promise<OrderRow> {
    const { shop, andThen } = opts
    return refusingUsedIds(async () => {
      const alone = opts.alone && (await insertAlone(pkg, input, tid, ctx, opts, opts.alone))
      if (alone) return alone
      return within(sequelize, ctx, async (transaction) => {
        await shop?.recheck(transaction)
        // A shop order is the shop's sale at the price its buyer confirmed, never an agent's own order.
        // Otherwise THE price rule, read in this transaction (a parent's price change waits for it: ADR 0041), or
        // read for this request by the caller's own statement just before it (ADR 0068): the same rows, never cached.
        const quote: Quote = shop
          ? { pricePesewas: shop.pricePesewas, parent: shop.parent ?? null }
          : await pricing.priceFor(ctx.user ?? null, pkg, { transaction, lock: true, read: opts.standingRead })
        const { order: o, entry } = orderColumns(deps, pkg, input, tid, quote, ctx, opts)
        const { order, settingsVersion, alsoWritten, paid, view } = opts.paidWith
          ? await queries.insertPaid(o, entry, opts.paidWith(o), transaction, opts.writtenWith)
          : { ...(await queries.insert(o, entry, transaction, opts.writtenWith)), paid: undefined, view: undefined }
        if (opts.writtenWith && !alsoWritten) throw opts.writtenWith.refused()
        // The settings as saved now, without a read unless they changed since the copy this request used.
        if (!(await settings.freshAt(settingsVersion, { transaction })).platformOpen) throw forbidden(PURCHASES_DISABLED)
        await andThen?.(order, transaction, paid, view)
        return order
      })
    })
  }

  /**
   * A wallet order written by one autocommitted statement (ADR 0079): the order with its ORDER_CREATED entry, the
   * caller's row (its Idempotency-Key), the payment written paid, the debit, the commission, the agent's text and
   * settlement's audit entry, all or nothing, with one commit and no START or COMMIT round trip. The price is the
   * caller's own statement's read (the caller checked that the price rule reads nothing more: no parent's prices). What
   * settlement's effects leave after the statement is only the delivery pump's hand-off, which runs after a commit
   * anyway: so only for an order queued for its vendor whose text the statement wrote. The statement refuses by itself
   * (nothing kept): a key another request holds, a wallet that did not cover it (402 as in a transaction), or, to be
   * placed in a transaction as before, settings saved since the copy or an agent with a webhook URL by now (its
   * webhook's job is written in the order's transaction). Undefined, with nothing written, when it does not go this way.
   */
  async function insertAlone(
    pkg: PackageRow,
    input: PlaceOrderInput,
    tid: string,
    ctx: Ctx,
    opts: InsertOptions,
    alone: { settingsVersion: string }
  ): Promise<OrderRow | undefined> {
    const quote = await pricing.priceFor(ctx.user ?? null, pkg, { read: opts.standingRead })
    const { order: o, entry } = orderColumns(deps, pkg, input, tid, quote, ctx, opts)
    const pay = opts.paidWith!(o)
    // In manual delivery the agent's text is dispatched by a job written in the payment's transaction: not here.
    if (pay.deliveryStatus !== 'QUEUED' || !pay.textDecided) return undefined
    let written: Awaited<ReturnType<OrderQueries['insertPaid']>>
    try {
      written = await queries.insertPaid(o, entry, pay, null, opts.writtenWith, alone)
    } catch (err) {
      const why = aloneRefusalOf(err)
      if (why === ALONE_REFUSED.keyTaken) throw opts.writtenWith!.refused()
      if (why === ALONE_REFUSED.uncovered) return wallet.orderPayment.uncovered(o.agentId!)
      if (why === ALONE_REFUSED.settingsSaved || why === ALONE_REFUSED.agentHooked) return undefined
      throw err
    }
    await opts.andThen?.(written.order, committedAlready(sequelize), written.paid, written.view)
    return written.order
  }

  /**
   * Wallet orders: the order, its wallet payment, the debit and settlement to SUCCESS in one
   * transaction, or one autocommitted statement (ADR 0079); a balance that does not cover it rolls the order back too
   * (402, nothing written).
   */
  async function placeWalletOrder(pkg: PackageRow, input: PlaceOrderInput, ctx: Ctx, current: Settings, opts: PlaceOptions = {}): Promise<PlacedOrder> {
    if (ctx.user?.role !== 'AGENT' || !ctx.user.agent) throw forbidden('Only agents can pay from a wallet')
    // A used transaction id: the unique indexes of orders and payments refuse it in the one transaction (409, nothing kept).
    const tid = tidOf(input)
    let placed: PlacedOrder | undefined
    // One autocommitted statement (ADR 0079) when nothing after it needs the order's transaction: no caller's transaction
    // or row of its own, an agent without a webhook URL as the caller's statement read it, settings from a saved row, and
    // the price rule's read made by the caller's statement for this agent and package with no parent's prices to read.
    const read = opts.standingRead
    const version = settings.versionOf(current)
    const alone =
      !ctx.transaction &&
      !opts.andThen &&
      opts.agentHooked === false &&
      version &&
      read?.agentId === ctx.user.agent.id &&
      read.packageIds.length === 1 &&
      read.packageIds[0] === pkg.id &&
      read.standing?.buyer.parentId === null
        ? { settingsVersion: version }
        : undefined
    // The order is written already marked simulated while the simulator takes payments: no UPDATE of it after.
    await insertOrder(pkg, input, tid, ctx, {
      simulated: payments.isSimulator,
      writtenWith: opts.writtenWith,
      standingRead: opts.standingRead,
      alone,
      // The payment and the debit are written by the order's own statement; a wallet that did not cover it is refused next (402).
      paidWith: (o) => wallet.orderPayment.written(o, ctx, current),
      andThen: async (o, transaction, written, row) => {
        const paid = await wallet.orderPayment.settled(
          { agentId: o.agentId, userId: o.userId, amountPesewas: o.amountPesewas, paymentTransactionId: tid },
          written!,
          { ...ctx, transaction },
          current
        )
        // The answer is the order's orders_view row as its own statement wrote it, in hand before the commit: once the
        // money has moved, a connection lost on a later read must not tell the agent it failed (and invite a second,
        // paid order). Settlement's effects change nothing of the order's row (ADR 0079), and its audit entry (PAYMENT_SUCCESS) was
        // written by that statement too, exactly when the wallet paid.
        placed = { order: presentOrder(row), payment: payments.present(paid), amountPesewas: o.amountPesewas, row }
        await opts.andThen?.(o.id, transaction)
      }
    })
    return placed!
  }

  /** Creates the PENDING order at the server's price and asks for the payment (mobile money or card per settings). */
  async function placeOrder(raw: PlaceOrderInput, ctx: Ctx = {}, opts: PlaceOptions = {}): Promise<PlacedOrder> {
    // A closed shop says so first, whatever was typed. Read before any transaction opens: nothing
    // inside one may wait for a second pool connection.
    const s = await openSettings()
    const input = checked(raw)
    // A shop's buyer is its customer, whoever is signed in; agent rules are for agents' own orders.
    if (!opts.shop) assertMayBuy(ctx.user)
    const pkg = await resolvePackage(input, opts.admitted, opts.packageRead)
    if (opts.shop && input.payFrom === 'wallet') throw badRequest('Shop orders are paid by mobile money or card')
    if (input.payFrom === 'wallet') return placeWalletOrder(pkg, input, ctx, s, opts)
    // Phone channels answer within seconds and pay by mobile money; their charge starts in a queued job.
    const background = input.channel === 'ussd' || input.channel === 'whatsapp'
    const method = background ? 'momo' : methodOf(s)
    const payer = payments.payerFor(method, input, ctx)
    const tid = tidOf(input)
    // The payment follows at once, so the order is written already marked when no real money moves.
    const simulated = payments.isSimulator
    const insert = { payerPhone: payer.phone, shop: opts.shop, simulated }
    const paymentFields = (order: Pick<OrderRow, 'amountPesewas'> & { id?: number }) => ({
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
      return within(sequelize, ctx, async (transaction) => {
        const order = await insertOrder(pkg, input, tid, { ...ctx, transaction }, insert)
        const payment = await payments.request(paymentFields(order), { ...ctx, transaction })
        await opts.andThen?.(order.id, transaction)
        return { order: presentOrder(order), payment, amountPesewas: order.amountPesewas }
      })
    }
    // Now, a visitor's order on the web: the order, its audit entry and its payment, claimed for its start, are
    // one statement (one round trip, one commit, no transaction around it) while the settings are as cached.
    const alone = !opts.shop && ctx.user?.role !== 'AGENT' ? await placeInOneStatement(pkg, input, tid, s, ctx, insert, paymentFields) : undefined
    if (alone) return answered(alone.order, await payments.charge(alone.payment, ctx))
    // Else (shops, agents, settings saved since): the order, its audit entry and its payment, claimed for its start, are one
    // transaction (one commit; a used transaction id is refused there by the unique indexes, 409); the gateway is called after it, outside any transaction, so its
    // webhook finds the row (ADR 0046). A payment that cannot be written rolls the order back with it.
    const { order, row } = await sequelize.transaction(async (transaction) => {
      const order = await insertOrder(pkg, input, tid, { ...ctx, transaction }, insert)
      return { order, row: await payments.open(paymentFields(order), { ...ctx, transaction }) }
    })
    return answered(order, await payments.charge(row, ctx))
  }

  /** The placed order with its payment as the gateway's answer left them. */
  async function answered(order: OrderRow, payment: PaymentView): Promise<PlacedOrder> {
    // The gateway's answer moved an open payment and its order together (IN_PROGRESS) in the
    // statement that saved it; only a start that ended the payment changed the order elsewhere.
    const now =
      payment.paymentStatus === 'PENDING' || payment.paymentStatus === 'IN_PROGRESS'
        ? { ...order, paymentStatus: payment.paymentStatus }
        : (await queries.byId(order.id))!
    return { order: presentOrder(now), payment, amountPesewas: order.amountPesewas }
  }

  /**
   * A visitor's order and its payment written by one statement (ADR 0046): a data-modifying CTE is atomic
   * on its own, so the order, its ORDER_CREATED entry and its claimed payment are durable together (one
   * commit that waits for the flush) before the gateway is called, with no START and COMMIT around them.
   * The price is the public one (no statement: the price rule reads nothing for a visitor). Undefined,
   * with nothing written, when this way does not apply: a payment that marks something else, settings
   * not read from a saved row, or a row saved since the copy that let the order in (the caller's
   * transaction then reads it afresh).
   */
  async function placeInOneStatement(
    pkg: PackageRow,
    input: PlaceOrderInput,
    tid: string,
    s: Settings,
    ctx: Ctx,
    insert: InsertOptions,
    paymentFields: (o: Pick<OrderRow, 'amountPesewas'>) => PaymentRequestInput
  ): Promise<{ order: OrderRow; payment: PaymentRow } | undefined> {
    const version = settings.versionOf(s)
    if (!version) return undefined
    const { order, entry } = orderColumns(deps, pkg, input, tid, await pricing.priceFor(ctx.user ?? null, pkg), ctx, insert)
    const payment = await payments.withOrder(paymentFields(order), ctx)
    if (!payment) return undefined
    const written = await refusingUsedIds(() => queries.insertWithPayment(order, entry, payment.values, version))
    // Remembered once written: a used id refused above never becomes this browser's to read.
    if (written) ctx.browser?.remember(tid)
    return written
  }

  /** The spec's two-step client: the order first (POST /api/orders), the payment next (POST /api/payment/request). */
  async function createOrder(raw: PlaceOrderInput, ctx: Ctx = {}, opts: PlaceOptions = {}): Promise<OrderView> {
    // A closed shop says so first, whatever was typed.
    await openSettings()
    const input = checked(raw)
    // A shop's buyer is its customer, whoever is signed in (as in placeOrder).
    if (!opts.shop) assertMayBuy(ctx.user)
    const pkg = await resolvePackage(input, opts.admitted)
    const tid = tidOf(input)
    await assertFreshTransactionId(tid)
    const { andThen } = opts
    const created = await insertOrder(pkg, input, tid, ctx, { shop: opts.shop, andThen: andThen && ((o, t) => andThen(o.id, t)) })
    // The payment step that follows (POST /api/payment/request) is this browser's alone.
    ctx.browser?.remember(tid)
    return presentOrder(created)
  }

  return {
    openSettings,
    placeOrder,
    createOrder,

    /** A reseller's order checked once, ready for placeOrder: paid from the agent's wallet through the API channel. */
    parseApiOrder(raw: unknown): PlaceOrderInput & ApiOrderInput {
      const input = checkOrder(raw && typeof raw === 'object' ? raw : {}, apiOrderSchema)
      const order = { ...input, channel: 'api' as const, payFrom: 'wallet' as const }
      validated.add(order)
      return order
    }
  }
}
