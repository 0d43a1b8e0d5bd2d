import type { Sequelize, Transaction } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import type { Env } from '../../env.ts'
import { notFound, unauthorized } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import type { AuditService } from '../audit/index.ts'
import type { CommissionsService } from '../commissions/index.ts'
import type { Ctx } from '../context.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import type { DeliveryService } from '../delivery/index.ts'
import type { Queue } from '../queue/index.ts'
import { createAttention, type Attention } from './attention.ts'
import { chooseProvider, payerEmailDomain } from './choose.ts'
import { createEvents, type EventHandler } from './events.ts'
import type { Events } from '../events/index.ts'
import { createOpening } from './open.ts'
import { parsePaystackEvent, verifyPaystackSignature } from './paystack.ts'
import type { PaymentProvider } from './provider.ts'
import { createPaymentQueries } from './queries.ts'
import { createRefunds, type RefundHandler } from './refund.ts'
import { createSettlement } from './settle.ts'
import { settleLines, type PaidLines } from './settle-lines.ts'
import { createStarter } from './start.ts'
import { checkReference, createPayerQuestions, mayRead } from './status.ts'
import { createDailyReconciliation } from './reconcile-daily.ts'
import { createReconcileDays } from './reconcile-days.ts'
import { newTransactionId } from './request.ts'
import { createPresent } from './view.ts'

export type { PaymentRow } from './provider.ts'
export { methodOf, payerEmailDomain } from './choose.ts'
export { paymentOfWritten } from './queries.ts'
export { orderFromJson, type PaidOrder } from './queries-settle.ts'
export { newTransactionId, REFERENCE_RE, transactionIdSchema, type PaymentRequestInput, type PaymentView } from './request.ts'

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

export type PaymentsService = ReturnType<typeof createPaymentsService>

/**
 * Payments, composed: the provider (choose.ts), opening one and starting its charge (open.ts, start.ts),
 * exactly-once settlement (settle.ts), refunds (refund.ts), the payer's questions (status.ts), signed
 * gateway events (events.ts) and the daily reconciliation (reconcile-daily.ts, reconcile-days.ts).
 */
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
  const { settle, load, loadWithOrder } = settlement
  const starter = createStarter({ sequelize, queue: deps.queue, log, provider, settlement, publicUrl: env.PUBLIC_URL })
  const events = createEvents({ sequelize, audit: deps.audit, attention, refunds, log, settle, events: deps.events, routes: deps.gatewayEvents })
  const daily = createDailyReconciliation({ sequelize, provider, attention, events, settlement, log })
  const reconcileDays = createReconcileDays({ sequelize, audit: deps.audit, reconcileDay: daily.run })
  const queries = createPaymentQueries(sequelize)
  const present = createPresent(provider)
  const opening = createOpening({ sequelize, settings: deps.settings, provider, queries, starter, settlement, present, momoEmailDomain: payerEmailDomain(env) })
  const questions = createPayerQuestions({ queries, starter, load, present })

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

  return {
    provider,
    providerName: provider.name,
    providerLabel: provider.label,
    isSimulator: provider.name === 'simulator',
    newTransactionId,
    present,
    mayRead,
    ...opening,
    settle,
    /** A wallet order's payment, written settled by its order's statement: how, and then its effects (ADR 0072). */
    settledOnWrite: settlement.settledOnWrite,
    settledAsWritten: settlement.settledAsWritten,
    /** Many wallet-covered data payments settled together, in the caller's transaction (a bulk order's lines). */
    settleLines: (lines: PaidLines, ctx: Ctx & { transaction: Transaction }) => settleLines(deps, lines, ctx),
    load,
    loadWithOrder,
    ...questions,

    /** For the reconcile job: gateway check and settlement, no ownership rules. */
    async refresh(transactionId: string) {
      const { row } = await starter.checkGateway(checkReference(transactionId))
      return row ? present(row) : null
    },

    /** Open payments past their gateway's window are checked once more, and expired when still unanswered. */
    expireStale: starter.expireStale,
    /** For the reconcile job: ask, settle, or expire one open payment. */
    reconcileOne: (transactionId: string) => starter.reconcileOne(checkReference(transactionId)),

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
