import Joi from 'joi'
import crypto from 'node:crypto'
import { QueryTypes, UniqueConstraintError, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import type { Env } from '../../env.ts'
import { badRequest, conflict, notFound, unauthorized } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { toGhs } from '../../lib/money.ts'
import { normalizePhone, parseGhanaMobile } from '../../lib/phone.ts'
import type { AuditService } from '../audit.ts'
import type { CommissionsService } from '../commissions.ts'
import type { Ctx } from '../context.ts'
import { GATEWAY_CARD, NETWORKS, type SettingsService } from '../settings.ts'
import type { SmsService } from '../sms.ts'
import { createPaystackProvider, parsePaystackEvent, verifyPaystackSignature } from './paystack.ts'
import { GatewayError, isFinal, type GatewayResult, type Method, type PaymentProvider, type PaymentRow, type StartResult } from './provider.ts'
import { createSettlement } from './settle.ts'
import { createSimulatorProvider } from './simulator.ts'

export interface PaymentRequestInput {
  purpose: 'data' | 'afa' | 'agent_fee'
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
}

export const TRANSACTION_ID_RE = /^\d{1,15}$/
/** Any reference we may be asked about (ours are digits; other flows may use letters too). */
export const REFERENCE_RE = /^[A-Za-z0-9_.=-]{1,64}$/
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

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

const requestSchema = Joi.object<PaymentRequestInput>({
  purpose: Joi.string().valid('data', 'afa', 'agent_fee').required(),
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
}).options({ stripUnknown: true })

export interface PaymentsDeps {
  sequelize: Sequelize
  models: Models
  env: Env
  log: Logger
  settings: SettingsService
  audit: AuditService
  commissions: CommissionsService
  sms: SmsService
  /** Tests may hand in a provider; otherwise it is chosen from the environment. */
  provider?: PaymentProvider
}

/** PAYSTACK_SECRET_KEY set -> Paystack; otherwise the built-in simulator. */
export function chooseProvider(env: Env): PaymentProvider {
  return env.PAYSTACK_SECRET_KEY ? createPaystackProvider(env) : createSimulatorProvider(env)
}

export type PaymentsService = ReturnType<typeof createPaymentsService>

export function createPaymentsService(deps: PaymentsDeps) {
  const { sequelize, models, env, log } = deps
  const provider = deps.provider ?? chooseProvider(env)
  const settlement = createSettlement(deps)
  const { settle, load } = settlement
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
  // The shop's own domain when known, so the gateway's customer records read as ours.
  const momoEmailDomain = env.PUBLIC_URL ? new URL(env.PUBLIC_URL).hostname : 'customers.datahub.invalid'

  if (provider.name === 'simulator' && env.NODE_ENV !== 'test') {
    log.warn({ provider: 'simulator' }, 'PAYMENT SIMULATOR ACTIVE: no PAYSTACK_SECRET_KEY configured; no real money moves')
    // Also straight to stderr, unformatted, so nobody mistakes a demo install for a live shop.
    console.warn(
      '\n  ************************************************************************\n' +
        '  *  PAYMENT SIMULATOR ACTIVE: no PAYSTACK_SECRET_KEY is configured.      *\n' +
        '  *  No real money moves. Approve or decline at /simulator/phone.        *\n' +
        '  ************************************************************************\n',
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
    }
  }

  async function methodFor(input: { method?: Method }): Promise<Method> {
    if (input.method) return input.method
    const s = await deps.settings.get()
    return s.paymentGateway === GATEWAY_CARD ? 'card' : 'momo'
  }

  /**
   * Checks who pays and how, before anything is written (orders call it first, so a bad payer never
   * leaves an orphan order). Throws the spec's messages.
   */
  function payerFor(method: Method, input: Pick<PaymentRequestInput, 'payerPhone' | 'payerNetwork' | 'email' | 'emailMessage'>, ctx: Ctx) {
    const typedEmail = String(input.email ?? '').trim().toLowerCase()
    if (method === 'momo') {
      // The prompt goes to this phone: a Ghanaian mobile number, however it was typed.
      const parsed = parseGhanaMobile(input.payerPhone)
      if (!parsed.ok) throw badRequest('Please enter a valid phone number')
      const phone = parsed.local
      const network = String(input.payerNetwork ?? '').trim().toUpperCase()
      if (!(NETWORKS as readonly string[]).includes(network)) throw badRequest('Please select a payment network (MTN, TELECEL or AIRTELTIGO)')
      const local = normalizePhone(phone)
      // Paystack's charge API needs an e-mail; a visitor paying by phone may not have given one.
      const email = EMAIL_RE.test(typedEmail) ? typedEmail : (ctx.user?.email ?? `momo-${local}@${momoEmailDomain}`)
      return { method, phone: local, network: network as 'MTN' | 'TELECEL' | 'AIRTELTIGO', email }
    }
    const email = typedEmail || String(ctx.user?.email ?? '').toLowerCase()
    if (!EMAIL_RE.test(email) || email.length > 254) throw badRequest(input.emailMessage ?? `Please enter a valid email address for ${provider.name === 'paystack' ? 'Paystack' : provider.label} payment`)
    return { method, phone: null, network: null, email }
  }

  async function request(raw: PaymentRequestInput, ctx: Ctx = {}): Promise<PaymentView> {
    const { value: input, error } = requestSchema.validate(raw)
    if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
    const method = await methodFor(input)
    const free = input.amountPesewas === 0
    // A free fee collects nothing, so there is no payer phone or checkout e-mail to ask for.
    const payer = free
      ? { method, phone: null, network: null, email: String(input.email ?? '').trim().toLowerCase() || (ctx.user?.email ?? null) }
      : payerFor(method, input, ctx)
    const transactionId = input.transactionId !== undefined && input.transactionId !== null ? String(input.transactionId) : newTransactionId()
    try {
      await models.Payment.create(
        {
          transactionId,
          purpose: input.purpose,
          gateway: free ? 'none' : provider.name,
          method,
          status: 'PENDING',
          amountPesewas: input.amountPesewas,
          payerPhone: payer.phone,
          payerNetwork: payer.network,
          email: payer.email,
          orderId: input.orderId ?? null,
          afaRegistrationId: input.afaRegistrationId ?? null,
          agentId: input.agentId ?? null,
          userId: input.userId ?? ctx.user?.id ?? null,
          details: input.afa ? { afa: input.afa } : {},
          lastCheckedAt: new Date(),
        },
        // Deliberately outside any caller transaction: webhooks and checks on other connections must see the row.
      )
    } catch (err) {
      if (err instanceof UniqueConstraintError) throw conflict('Transaction ID already used. Please try again.')
      throw err
    }
    if (input.purpose === 'agent_fee' && input.agentId) {
      await q(
        `UPDATE agents SET payment_status = 'PENDING', payment_transaction_id = :tid, updated_at = now()
         WHERE id = :id AND payment_status IS DISTINCT FROM 'SUCCESS' RETURNING id`,
        { id: input.agentId, tid: transactionId },
      )
    }

    if (free) {
      // Nothing to collect (e.g. an AFA fee of 0): settled at once through the same single path.
      await settle(transactionId, { status: 'SUCCESS', message: 'No payment required', amountPesewas: 0, currency: 'GHS' }, ctx)
      return present((await load(transactionId))!)
    }

    let start: StartResult
    try {
      start =
        method === 'card'
          ? await provider.startCard({ reference: transactionId, amountPesewas: input.amountPesewas, email: payer.email!, callbackUrl: input.callbackUrl ?? (env.PUBLIC_URL ? `${env.PUBLIC_URL.replace(/\/+$/, '')}/payment-callback` : null) })
          : await provider.startMomo({ reference: transactionId, amountPesewas: input.amountPesewas, phone: payer.phone!, network: payer.network!, email: payer.email! })
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err
      log.error({ err: { message: err.message }, transactionId }, 'payment request failed at the gateway')
      start = { status: 'FAILED', message: err.gatewayMessage }
    }
    await q(
      `UPDATE payments SET ext_transaction_id = COALESCE(:ext, ext_transaction_id), message = :message,
         details = details || jsonb_build_object('authorizationUrl', CAST(:url AS text)), updated_at = now()
       WHERE transaction_id = :tid RETURNING id`,
      { tid: transactionId, ext: start.extId ?? null, message: start.message || null, url: start.authorizationUrl ?? null },
    )
    if (start.status === 'FAILED' || (method === 'card' && !start.authorizationUrl)) {
      await settle(transactionId, { status: 'FAILED', message: start.message || `${provider.label} authorization URL not received` }, ctx)
    } else if (start.status === 'IN_PROGRESS') {
      await settlement.progress(transactionId, start)
    }
    return present((await load(transactionId))!)
  }

  /**
   * Asks the gateway about an open payment and settles on its answer. A conditional UPDATE on
   * last_checked_at claims the question, so all instances together ask no faster than the gateway allows.
   */
  async function checkGateway(transactionId: string): Promise<{ row: PaymentRow | null; asked: boolean }> {
    const row = await load(transactionId)
    if (!row || isFinal(row.status)) return { row, asked: false }
    if (row.gateway !== provider.name) return { row, asked: false }
    const secs = provider.minCheckIntervalMs(row.method) / 1000
    const [claimed] = await q<PaymentRow>(
      `UPDATE payments SET last_checked_at = now()
       WHERE transaction_id = :tid AND status IN ('PENDING','IN_PROGRESS')
         AND (last_checked_at IS NULL OR last_checked_at <= now() - make_interval(secs => :secs))
       RETURNING *`,
      { tid: transactionId, secs },
    )
    if (!claimed) return { row, asked: false }
    let result: GatewayResult
    try {
      result = await provider.check(claimed)
    } catch (err) {
      log.warn({ err: { message: (err as Error).message }, transactionId }, 'payment status check failed')
      return { row, asked: false }
    }
    const out = await settle(transactionId, result, {})
    return { row: out.row ?? (await load(transactionId)), asked: true }
  }

  function checkReference(transactionId: unknown): string {
    const tid = String(transactionId ?? '').trim()
    if (!REFERENCE_RE.test(tid)) throw badRequest('Invalid transaction ID')
    return tid
  }

  /** Payments made by a signed-in person are theirs (and admins'); a visitor's payment is reached by its unguessable id. */
  function assertMayRead(p: PaymentRow, ctx: Ctx) {
    if (p.user_id && ctx.user?.role !== 'ADMIN' && ctx.user?.id !== p.user_id) throw notFound('Transaction not found')
  }

  return {
    provider,
    providerName: provider.name,
    providerLabel: provider.label,
    isSimulator: provider.name === 'simulator',
    newTransactionId,
    present,
    methodFor,
    payerFor,
    request,
    settle,
    load,

    /** The status for the payer: asks the gateway (at its pace) while open, settles the same single way. */
    async status(transactionId: string, ctx: Ctx = {}) {
      const tid = checkReference(transactionId)
      const existing = await load(tid)
      if (!existing) throw notFound('Transaction not found')
      assertMayRead(existing, ctx)
      const { row } = await checkGateway(tid)
      const p = row ?? existing
      return { paymentStatus: p.status, message: p.message ?? '', extTransactionId: p.ext_transaction_id, transactionId: p.transaction_id, purpose: p.purpose, orderId: p.order_id }
    },

    /** For the reconcile job: gateway check and settlement, no ownership rules. */
    async refresh(transactionId: string) {
      const { row } = await checkGateway(checkReference(transactionId))
      return row ? present(row) : null
    },

    /** Open payments older than this are checked once more, and expired when the gateway still has no answer. */
    async expireStale(olderThanMinutes: number): Promise<{ checked: number; settled: number; expired: number }> {
      const minutes = Math.max(1, Math.floor(Number(olderThanMinutes) || 0))
      const stale = await q<{ transaction_id: string }>(
        `SELECT transaction_id FROM payments WHERE status IN ('PENDING','IN_PROGRESS') AND created_at < now() - make_interval(mins => :m)
         ORDER BY created_at LIMIT 500`,
        { m: minutes },
      )
      let settled = 0
      let expired = 0
      for (const { transaction_id: tid } of stale) {
        const { row, asked } = await checkGateway(tid)
        if (row && isFinal(row.status)) {
          settled++
          continue
        }
        // Throttled this round: ask again next run rather than expire a payment that may just have gone through.
        if (!asked && row?.gateway === provider.name) continue
        const out = await settle(tid, { status: 'EXPIRED', message: 'Payment expired' })
        if (out.settled) expired++
      }
      return { checked: stale.length, settled, expired }
    },

    /** GET /api/webhooks/paystack?reference=: the payer is back from the checkout; verify and report. */
    async verifyCallback(reference: unknown, ctx: Ctx = {}) {
      if (reference === undefined || reference === null || reference === '') throw badRequest('No payment reference provided')
      const tid = checkReference(reference)
      const existing = await load(tid)
      if (!existing) throw notFound('Payment not found')
      const { row } = await checkGateway(tid)
      const p = row ?? existing
      let type: 'data' | 'agent_order' | 'agent' | 'afa' = p.purpose === 'afa' ? 'afa' : p.purpose === 'agent_fee' ? 'agent' : 'data'
      if (p.purpose === 'data' && p.order_id) {
        const [o] = await q<{ agent_id: number | null }>('SELECT agent_id FROM orders WHERE id = :id', { id: p.order_id })
        if (o?.agent_id) type = 'agent_order'
      }
      void ctx
      return {
        status: p.status === 'SUCCESS' ? 'success' : p.status === 'FAILED' || p.status === 'EXPIRED' ? 'failed' : 'pending',
        paymentStatus: p.status,
        message: p.status === 'SUCCESS' ? 'Payment completed successfully!' : p.message || (p.status === 'FAILED' ? 'There was an issue with your payment.' : 'Payment is still pending'),
        transactionId: p.transaction_id,
        orderId: p.order_id,
        agentId: p.agent_id,
        afaId: p.afa_registration_id,
        type,
      }
    },

    /** POST /api/webhooks/paystack: signed events only; a bad signature changes nothing. */
    async paystackWebhook(rawBody: Buffer | undefined, signature: unknown, body: unknown, ctx: Ctx = {}) {
      if (provider.name !== 'paystack' || !env.PAYSTACK_SECRET_KEY) throw notFound()
      if (!verifyPaystackSignature(env.PAYSTACK_SECRET_KEY, rawBody, signature)) throw unauthorized('Invalid signature')
      const event = parsePaystackEvent(body)
      if (!event) return { received: true }
      const p = await load(event.reference)
      if (!p || p.gateway !== 'paystack') return { received: true }
      await settle(event.reference, event.result, ctx)
      return { received: true }
    },
  }
}

