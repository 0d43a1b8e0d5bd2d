import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { isUniqueViolation, preparedFor } from '../../../models/prepared.ts'
import type { Env } from '../../env.ts'
import { badRequest, conflict, notFound, unauthorized } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { toGhs } from '../../lib/money.ts'
import { normalizePhone, parseGhanaMobile, phoneVariants } from '../../lib/phone.ts'
import type { AuditService } from '../audit/index.ts'
import type { CommissionsService } from '../commissions/index.ts'
import type { Ctx } from '../context.ts'
import { isNetwork, NETWORKS, orList } from '../../lib/vocabulary.ts'
import { GATEWAY_CARD, type Settings, type SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import type { DeliveryService } from '../delivery/index.ts'
import type { Queue } from '../queue/index.ts'
import { createAttention, type Attention } from './attention.ts'
import { createEvents, type EventHandler } from './events.ts'
import type { Events } from '../events/index.ts'
import type { RefundHandler } from './refund.ts'
import { createPaystackProvider, parsePaystackEvent, verifyPaystackSignature } from './paystack.ts'
import { type Method, type PaymentProvider, type PaymentRow } from './provider.ts'
import { createRefunds } from './refund.ts'
import { createSettlement } from './settle.ts'
import { settleLines, type PaidLines } from './settle-lines.ts'
import { createSimulatorProvider } from './simulator.ts'
import { createStarter } from './start.ts'
import { createDailyReconciliation } from './reconcile-daily.ts'
import { createReconcileDays } from './reconcile-days.ts'
import { EMAIL_RE, newTransactionId, REFERENCE_RE, requestSchema, type PaymentRequestInput, type PaymentView } from './request.ts'

export type { PaymentRow } from './provider.ts'
export { newTransactionId, REFERENCE_RE, transactionIdSchema, type PaymentRequestInput, type PaymentView } from './request.ts'

const INSERT_PAYMENT = `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, payer_phone, payer_network, email,
    order_id, afa_registration_id, agent_id, user_id, details, last_checked_at, simulated)
  VALUES ($1, $2, $3, $4, 'PENDING', $5, $6, $7, $8, $9, $10, $11, $12,
    CASE WHEN $15 THEN $13::jsonb || jsonb_build_object('startedAt', now()) ELSE $13::jsonb END, now(), $14) RETURNING *`

export interface PaymentsDeps {
  sequelize: Sequelize
  models: Models
  env: Env
  log: Logger
  settings: SettingsService
  audit: AuditService
  commissions: CommissionsService
  sms: SmsService
  /** Queues the delivery of a paid data order in the settlement's transaction. */
  delivery?: Pick<DeliveryService, 'onPaid' | 'onPaidMany'>
  queue: Queue
  /** Tests may hand in a provider; otherwise it is chosen from the environment. */
  provider?: PaymentProvider
  /** Where settlement, refunds and reversals publish their facts (order.settled, order.moneyReturned). */
  events: Pick<Events, 'publish'>
  /** Money given back through something other than the provider, by gateway name (the agent wallet). */
  refundHandlers?: Record<string, RefundHandler>
  /** Signed gateway events of other capabilities, by name prefix (payouts take 'transfer.'). */
  gatewayEvents?: { prefix: string; handle: EventHandler }[]
  /** The list of payment issues for the admin; shared with payouts, which note theirs on it too. */
  attention?: Attention
}

/** PAYMENT_PROVIDER=simulator forces the simulator; else PAYSTACK_SECRET_KEY set -> Paystack; otherwise the built-in simulator. */
export function chooseProvider(env: Env, sequelize?: Sequelize): PaymentProvider {
  if (env.PAYSTACK_SECRET_KEY && env.PAYMENT_PROVIDER !== 'simulator') return createPaystackProvider(env)
  const phoneOf = async (reference: string) =>
    sequelize
      ? (
          await sequelize.query<{ payer_phone: string | null }>('SELECT payer_phone FROM payments WHERE transaction_id = :r', {
            replacements: { r: reference },
            type: QueryTypes.SELECT
          })
        ).map((r) => r.payer_phone)
      : []
  // The simulator's "gateway side" is the payer's answer kept on our own rows: its list is read from them.
  const list = async (from: Date, to: Date) =>
    sequelize
      ? (
          await sequelize.query<{ reference: string; status: string; amount: number }>(
            `SELECT transaction_id AS reference, CASE details->'simulator'->>'decision' WHEN 'APPROVED' THEN 'success' WHEN 'DECLINED' THEN 'failed' ELSE 'pending' END AS status, amount_pesewas AS amount
               FROM payments WHERE gateway = 'simulator' AND created_at >= :from AND created_at < :to`,
            { replacements: { from, to }, type: QueryTypes.SELECT }
          )
        ).map((r) => ({ reference: r.reference, status: r.status, amountPesewas: r.amount, currency: 'GHS' }))
      : []
  return createSimulatorProvider(env, phoneOf, list)
}

/** The flow settings.paymentGateway picks for a request that does not force one. */
export const methodOf = (s: Pick<Settings, 'paymentGateway'>): Method => (s.paymentGateway === GATEWAY_CARD ? 'card' : 'momo')

/** The visitor's stand-in e-mail domain for Paystack: PAYER_EMAIL_DOMAIN, else the shop's host when it is a domain name. */
export function payerEmailDomain(env: Env): string {
  if (env.PAYER_EMAIL_DOMAIN) return env.PAYER_EMAIL_DOMAIN
  const host = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : ''
  return /^([a-z0-9-]+\.)+[a-z]{2,63}$/i.test(host) ? host : 'customers.datahub.invalid'
}

export type PaymentsService = ReturnType<typeof createPaymentsService>

export function createPaymentsService(deps: PaymentsDeps) {
  const { sequelize, env, log } = deps
  const provider = deps.provider ?? chooseProvider(env, sequelize)
  const attention = deps.attention ?? createAttention({ sequelize })
  const refunds = createRefunds({
    sequelize,
    queue: deps.queue,
    audit: deps.audit,
    settings: deps.settings,
    attention,
    log,
    events: deps.events,
    handlers: { ...deps.refundHandlers, [provider.name]: provider }
  })
  const settlement = createSettlement({ ...deps, refunds, attention })
  const { settle, load } = settlement
  const starter = createStarter({ sequelize, queue: deps.queue, log, provider, settlement, publicUrl: env.PUBLIC_URL })
  const { checkGateway } = starter
  const events = createEvents({ sequelize, audit: deps.audit, attention, refunds, log, settle, events: deps.events, routes: deps.gatewayEvents })
  const daily = createDailyReconciliation({ sequelize, provider, attention, events, settlement, log })
  const reconcileDays = createReconcileDays({ sequelize, audit: deps.audit, reconcileDay: daily.run })
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
  const momoEmailDomain = payerEmailDomain(env)
  const run = preparedFor(sequelize)

  if (provider.name === 'simulator' && env.NODE_ENV !== 'test') {
    log.warn({ provider: 'simulator' }, 'PAYMENT SIMULATOR ACTIVE: no PAYSTACK_SECRET_KEY configured; no real money moves')
    // Also straight to stderr, unformatted, so nobody mistakes a demo install for a live shop.
    console.warn(
      '\n  ************************************************************************\n' +
        '  *  PAYMENT SIMULATOR ACTIVE: no PAYSTACK_SECRET_KEY is configured.      *\n' +
        '  *  No real money moves. Approve or decline at /simulator/phone.        *\n' +
        '  ************************************************************************\n'
    )
  } else if (provider.name === 'paystack') log.info({ baseUrl: env.PAYSTACK_BASE_URL }, 'payments: Paystack')

  function present(p: PaymentRow): PaymentView {
    return {
      transactionId: p.transaction_id,
      paymentStatus: p.status,
      extTransactionId: p.ext_transaction_id,
      message: p.message ?? '',
      gateway: p.method === 'card' ? 'paystack' : 'ussd',
      provider: p.gateway,
      providerLabel: p.gateway === provider.name ? provider.label : p.gateway,
      authorizationUrl: (p.details?.authorizationUrl as string | undefined) ?? null,
      amount: toGhs(p.amount_pesewas),
      purpose: p.purpose,
      needsCode: (p.status === 'PENDING' || p.status === 'IN_PROGRESS') && p.details?.needs ? (p.details.needs as 'otp') : null
    }
  }

  async function methodFor(input: { method?: Method }): Promise<Method> {
    return input.method ?? methodOf(await deps.settings.getFresh())
  }

  /**
   * Checks who pays and how, before anything is written (orders call it first, so a bad payer never
   * leaves an orphan order). Throws the spec's messages.
   */
  function payerFor(method: Method, input: Pick<PaymentRequestInput, 'payerPhone' | 'payerNetwork' | 'email' | 'emailMessage'>, ctx: Ctx) {
    const typedEmail = String(input.email ?? '')
      .trim()
      .toLowerCase()
    if (method === 'momo') {
      // The prompt goes to this phone: a Ghanaian mobile number, however it was typed.
      const parsed = parseGhanaMobile(input.payerPhone)
      if (!parsed.ok) throw badRequest('Please enter a valid phone number')
      const phone = parsed.local
      const network = String(input.payerNetwork ?? '')
        .trim()
        .toUpperCase()
      if (!isNetwork(network)) throw badRequest(`Please select a payment network (${orList(NETWORKS)})`)
      const local = normalizePhone(phone)
      // Paystack's charge API needs an e-mail; a visitor paying by phone may not have given one.
      const email = EMAIL_RE.test(typedEmail) ? typedEmail : (ctx.user?.email ?? `momo-${local}@${momoEmailDomain}`)
      return { method, phone: local, network, email }
    }
    const email = typedEmail || String(ctx.user?.email ?? '').toLowerCase()
    if (!EMAIL_RE.test(email) || email.length > 254)
      throw badRequest(input.emailMessage ?? `Please enter a valid email address for ${provider.name === 'paystack' ? 'Paystack' : provider.label} payment`)
    return { method, phone: null, network: null, email }
  }

  /** What a request asks for, checked: the flow, who pays, and whether the charge starts now or in a queued job. */
  async function prepare(raw: PaymentRequestInput, ctx: Ctx) {
    const { value: input, error } = requestSchema.validate(raw)
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const method = await methodFor(input)
    const free = input.amountPesewas === 0
    // A free fee collects nothing, so there is no payer phone or checkout e-mail to ask for.
    const payer = free
      ? {
          method,
          phone: null,
          network: null,
          email:
            String(input.email ?? '')
              .trim()
              .toLowerCase() ||
            (ctx.user?.email ?? null)
        }
      : payerFor(method, input, ctx)
    const transactionId = input.transactionId !== undefined && input.transactionId !== null ? String(input.transactionId) : newTransactionId()
    // A charge started by the queue (USSD) adds its job in the same transaction as its row.
    const background = !!input.background && !free
    return { input, method, free, payer, transactionId, background }
  }

  /**
   * The row and what it marks, in `transaction` when given. `claimed`: written with its start already
   * claimed (`startedAt`), for a caller that calls the gateway itself once its transaction committed.
   */
  async function write(p: Awaited<ReturnType<typeof prepare>>, transaction?: Transaction, claimed = false): Promise<PaymentRow> {
    const { input, free, payer, transactionId } = p
    try {
      // Every order placed writes one: a named statement, no model instance (ADR 0024).
      const [row] = await run<PaymentRow>(
        INSERT_PAYMENT,
        [
          transactionId,
          input.purpose,
          free ? 'none' : provider.name,
          p.method,
          input.amountPesewas,
          payer.phone,
          payer.network,
          payer.email,
          input.orderId ?? null,
          input.afaRegistrationId ?? null,
          input.agentId ?? null,
          input.userId ?? null,
          JSON.stringify({
            ...(input.afa ? { afa: input.afa } : {}),
            ...(input.callbackUrl ? { callbackUrl: input.callbackUrl } : {}),
            ...(input.voucher ? { voucher: input.voucher } : {}),
            ...(input.vouchers ? { vouchers: input.vouchers } : {})
          }),
          !free && provider.name === 'simulator',
          claimed
        ],
        transaction
      )
      if (!free && provider.name === 'simulator' && input.orderId && !input.orderMarked) {
        // The order is marked too: admin tables, exports and delivery must know no real money moved.
        await sequelize.query('UPDATE orders SET simulated = true, updated_at = now() WHERE id = :id RETURNING id', {
          replacements: { id: input.orderId },
          type: QueryTypes.SELECT,
          transaction
        })
      }
      if (input.purpose === 'agent_fee' && input.agentId) {
        await sequelize.query(
          `UPDATE agents SET payment_status = 'PENDING', payment_transaction_id = :tid, updated_at = now()
           WHERE id = :id AND payment_status IS DISTINCT FROM 'SUCCESS' RETURNING id`,
          { replacements: { id: input.agentId, tid: transactionId }, type: QueryTypes.SELECT, transaction }
        )
      }
      if (p.background) await starter.startLater(transactionId, transaction)
      return row!
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('Transaction ID already used. Please try again.')
      throw err
    }
  }

  async function request(raw: PaymentRequestInput, ctx: Ctx = {}): Promise<PaymentView> {
    const p = await prepare({ ...raw, userId: raw.userId ?? ctx.user?.id ?? null }, ctx)
    const { transactionId } = p
    // A charge started now (the browser waits on the gateway) needs the row committed first: webhooks
    // and checks on other connections must see it. A charge started by the queue (USSD) adds its job
    // in the same transaction (the caller's, which holds its order, when it has one): one commit
    // instead of three (ADR 0024).
    const written = p.background ? (ctx.transaction ? await write(p, ctx.transaction) : await sequelize.transaction((t) => write(p, t))) : await write(p)
    // This browser may come back to it (status, checkout, the simulator's phone); nobody else by its id alone.
    ctx.browser?.remember(transactionId)

    if (p.free) {
      // Nothing to collect (e.g. an AFA fee of 0): settled at once through the same single path.
      await settle(transactionId, { status: 'SUCCESS', message: 'No payment required', amountPesewas: 0, currency: 'GHS' }, ctx)
      return present((await load(transactionId))!)
    }

    // Queued: nothing has touched the row since it was written.
    if (p.background) return present(written)
    return present((await starter.startCharge(transactionId, ctx)) ?? (await load(transactionId))!)
  }

  /**
   * A charge to start now, written in the caller's transaction (an order and its payment: one commit,
   * ADR 0046) already claimed for its start. After the commit the caller calls `charge` with the row.
   */
  async function open(raw: PaymentRequestInput, ctx: Ctx & { transaction: Transaction }): Promise<PaymentRow> {
    const p = await prepare({ ...raw, userId: raw.userId ?? ctx.user?.id ?? null, background: false }, ctx)
    if (p.free) throw new Error('a payment opened with its order collects money')
    const row = await write(p, ctx.transaction, true)
    ctx.browser?.remember(p.transactionId)
    return row
  }

  /** The gateway call for a row `open` wrote, outside any transaction; the answer comes back from the statement that saved it. */
  async function charge(row: PaymentRow, ctx: Ctx = {}): Promise<PaymentView> {
    return present((await starter.startClaimed(row, ctx)) ?? (await load(row.transaction_id))!)
  }

  function checkReference(transactionId: unknown): string {
    const tid = String(transactionId ?? '').trim()
    if (!REFERENCE_RE.test(tid)) throw badRequest('Invalid transaction ID')
    return tid
  }

  /**
   * Who may read a payment: admins; the signed-in person who made it; the browser that
   * started it; or whoever also gives the paying phone number. A transaction id alone opens nothing.
   */
  function mayRead(p: PaymentRow, ctx: Ctx, phone?: unknown): boolean {
    if (ctx.user?.role === 'ADMIN') return true
    if (p.user_id) return ctx.user?.id === p.user_id || !!ctx.browser?.owns(p.transaction_id)
    if (ctx.browser?.owns(p.transaction_id)) return true
    const digits = typeof phone === 'string' ? phone.replace(/\D/g, '') : ''
    return !!p.payer_phone && /^\d{9,12}$/.test(digits) && phoneVariants(digits).includes(p.payer_phone)
  }
  function assertMayRead(p: PaymentRow, ctx: Ctx, phone?: unknown, message = 'Transaction not found') {
    if (!mayRead(p, ctx, phone)) throw notFound(message)
  }

  return {
    provider,
    providerName: provider.name,
    providerLabel: provider.label,
    isSimulator: provider.name === 'simulator',
    newTransactionId,
    present,
    mayRead,
    methodFor,
    payerFor,
    request,
    open,
    charge,
    settle,
    /** Many wallet-covered data payments settled together, in the caller's transaction (a bulk order's lines). */
    settleLines: (lines: PaidLines, ctx: Ctx & { transaction: Transaction }) => settleLines(deps, lines, ctx),
    load,

    /** The status for the payer: asks the gateway (at its pace) while open, settles the same single way. */
    async status(transactionId: string, ctx: Ctx = {}, phone?: unknown) {
      const tid = checkReference(transactionId)
      const existing = await load(tid)
      if (!existing) throw notFound('Transaction not found')
      assertMayRead(existing, ctx, phone)
      const { row } = await checkGateway(tid)
      const p = row ?? existing
      return {
        paymentStatus: p.status,
        message: p.message ?? '',
        extTransactionId: p.ext_transaction_id,
        transactionId: p.transaction_id,
        purpose: p.purpose,
        orderId: p.order_id,
        needsCode: present(p).needsCode
      }
    },

    /** For the reconcile job: gateway check and settlement, no ownership rules. */
    async refresh(transactionId: string) {
      const { row } = await checkGateway(checkReference(transactionId))
      return row ? present(row) : null
    },

    /** Open payments past their gateway's window are checked once more, and expired when still unanswered. */
    expireStale: starter.expireStale,
    /** For the reconcile job: ask, settle, or expire one open payment. */
    reconcileOne: (transactionId: string) => starter.reconcileOne(checkReference(transactionId)),

    /** POST /api/payment/:transactionId/code: the payer's voucher or OTP. */
    async submitCode(transactionId: string, code: unknown, ctx: Ctx = {}) {
      const tid = checkReference(transactionId)
      const existing = await load(tid)
      if (!existing) throw notFound('Transaction not found')
      assertMayRead(existing, ctx)
      return present(await starter.submitCode(tid, code, ctx))
    },

    /** The queued start of a charge (USSD, WhatsApp). */
    async startCharge(transactionId: string): Promise<void> {
      await starter.startCharge(transactionId)
    },
    /** The daily reconciliation with the gateway's own list (one UTC day), and its kept runs. */
    reconcileDay: daily.run,
    reconciliationRuns: daily.runs,
    /** Complete days not yet reconciled (bounded): what the catch-up job does next. */
    daysToReconcile: reconcileDays.missingDays,
    /** "Reconcile now" for a day or a range (admin page, operator command), audited. */
    reconcileNow: reconcileDays.reconcileNow,
    attention,
    refunds,
    events,
    /** services.payments.refund(transactionId, reason): gives back what is left of a settled payment, exactly once. */
    refund: refunds.refund,
    /** For delivery's FAILED transition and the admin's Refund action. */
    refundOrder: refunds.refundOrder,
    /** Admin Refund by payment reference: orders as refundOrder; top-ups and bulk order payments out of the wallet (ADR 0045). */
    refundPayment: refunds.refundPayment,
    onDeliveryFailed: refunds.onDeliveryFailed,

    /** GET /api/webhooks/paystack?reference=: the payer is back from the checkout; verify and report. */
    async verifyCallback(reference: unknown, ctx: Ctx = {}, phone?: unknown) {
      if (reference === undefined || reference === null || reference === '') throw badRequest('No payment reference provided')
      const tid = checkReference(reference)
      const existing = await load(tid)
      if (!existing) throw notFound('Payment not found')
      assertMayRead(existing, ctx, phone, 'Payment not found')
      let type: 'data' | 'agent_order' | 'agent' | 'afa' | 'wallet_topup' | 'voucher' =
        existing.purpose === 'afa'
          ? 'afa'
          : existing.purpose === 'agent_fee'
            ? 'agent'
            : existing.purpose === 'wallet_topup' || existing.purpose === 'voucher'
              ? existing.purpose
              : 'data'
      // Asked before the gateway check settles it: nothing may be read after the payment is settled,
      // where a lost connection would answer an error for money that went through.
      if (existing.purpose === 'data' && existing.order_id) {
        const [o] = await q<{ agent_id: number | null }>('SELECT agent_id FROM orders WHERE id = :id', { id: existing.order_id })
        if (o?.agent_id) type = 'agent_order'
      }
      const { row } = await checkGateway(tid)
      const p = row ?? existing
      return {
        status: p.status === 'SUCCESS' ? 'success' : p.status === 'PENDING' || p.status === 'IN_PROGRESS' ? 'pending' : 'failed',
        paymentStatus: p.status,
        message:
          p.status === 'SUCCESS'
            ? 'Payment completed successfully!'
            : p.message || (p.status === 'FAILED' ? 'There was an issue with your payment.' : 'Payment is still pending'),
        transactionId: p.transaction_id,
        orderId: p.order_id,
        agentId: p.agent_id,
        afaId: p.afa_registration_id,
        type
      }
    },

    /** POST /api/webhooks/paystack: signed events only; a bad signature changes nothing. */
    async paystackWebhook(rawBody: Buffer | undefined, signature: unknown, body: unknown, ctx: Ctx = {}) {
      if (provider.name !== 'paystack' || !env.PAYSTACK_SECRET_KEY) throw notFound()
      if (!verifyPaystackSignature(env.PAYSTACK_SECRET_KEY, rawBody, signature)) throw unauthorized('Invalid signature')
      const event = parsePaystackEvent(body, rawBody)
      if (!event) return { received: true }
      await events.paystack(event, ctx)
      return { received: true }
    }
  }
}
