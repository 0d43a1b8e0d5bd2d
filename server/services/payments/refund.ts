import type { Sequelize, Transaction } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { Queue } from '../queue/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { Attention } from './attention.ts'
import type { Events } from '../events/index.ts'
import type { PaymentRow, RefundAnswer, RefundCall } from './provider.ts'
import { createRefundQueries, type Refund } from './queries-refund.ts'
import { takeBackWalletCredit } from './wallet-credit-refund.ts'

export const REFUND_TASK = 'payments.refund'

/** Gives money back through one provider (the gateway, the simulator, the agent wallet...). */
export interface RefundHandler {
  refund(c: RefundCall): Promise<RefundAnswer>
  /** After a crash mid-call: the refund the provider already made for this reference, if any. */
  findRefund?(reference: string): Promise<RefundAnswer | null>
}

export type { Refund } from './queries-refund.ts'

export interface RefundDeps {
  sequelize: Sequelize
  queue: Queue
  audit: AuditService
  settings: SettingsService
  attention: Attention
  log: Logger
  events: Pick<Events, 'publish'>
  /** Who gives money back for each gateway that is not a payment provider (the agent wallet). */
  handlers?: Record<string, RefundHandler>
}

/**
 * Refunds exactly once, like settlement (ADR 0013): the refund row is written in the transaction
 * that decides it, with its audit entry, the order's new status and the commission reversal;
 * UNIQUE (transaction_id, kind) lets only one decision win. The money call happens after the commit,
 * in a queued job keyed by the refund id, and a retried job first asks the provider whether the
 * refund already exists, so a crash mid-call never gives money back twice.
 */
export function createRefunds(deps: RefundDeps) {
  const { sequelize, log } = deps
  const handlers = new Map<string, RefundHandler>(Object.entries(deps.handlers ?? {}))
  const queries = createRefundQueries(sequelize)

  /** What is left to give back of a payment: what came in minus refunds already decided. */
  async function refundable(p: PaymentRow, t?: Transaction): Promise<number> {
    const paid = Number(p.details?.paid?.amountPesewas ?? p.amount_pesewas)
    return Math.max(0, paid - (await queries.decidedFor(p.id, t)))
  }

  /**
   * Decides a refund inside the caller's transaction. Returns the refund row, or null when this
   * payment already has one of this kind (the loser of a race does nothing).
   */
  async function issueInTx(
    t: Transaction,
    p: PaymentRow,
    input: { kind: 'full' | 'excess' | 'shortfall'; amountPesewas?: number; reason: string; details?: Record<string, unknown> },
    ctx: Ctx = {}
  ): Promise<Refund | null> {
    const left = await refundable(p, t)
    const amount = Math.min(input.amountPesewas ?? left, left)
    // Stryker disable next-line ConditionalExpression,EqualityOperator: nothing reaches 0 here: settlement decides its refunds before any other (amounts > 0), refund() stops at 0 itself
    if (amount <= 0) return null
    const r = await queries.insert(
      {
        paymentId: p.id,
        transactionId: p.transaction_id,
        kind: input.kind,
        gateway: p.gateway,
        amountPesewas: amount,
        // Stryker disable next-line MethodExpression: every caller passes at most 500 characters (refund() refuses more, the others are fixed texts); the cut only guards a new caller
        reason: input.reason.slice(0, 500),
        requestedBy: ctx.user?.id ?? null
      },
      t
    )
    if (!r) return null
    const details: Record<string, unknown> = {
      refundId: r.id,
      transactionId: p.transaction_id,
      kind: r.kind,
      amount: toGhs(amount),
      reason: r.reason,
      gateway: p.gateway,
      ...input.details
    }
    if (input.kind === 'full') {
      await queries.paymentRefundPending(p.id, t)
      if (p.order_id) {
        const refunded = await queries.orderRefunded(p.order_id, t)
        details.orderId = p.order_id
        if (refunded) {
          // The agent earns nothing on money given back.
          const commissionPesewas = await queries.deleteCommission(p.order_id, t)
          details.commissionReversed = commissionPesewas != null ? toGhs(commissionPesewas) : 0
          await deps.events.publish('order.moneyReturned', { orderId: p.order_id, why: 'refund' }, { ...ctx, transaction: t })
        }
      }
      if (p.purpose === 'voucher')
        await deps.events.publish('voucher.moneyReturned', { transactionId: p.transaction_id, why: 'refund' }, { ...ctx, transaction: t })
    }
    await deps.queue.enqueue(REFUND_TASK, { refundId: r.id }, { transaction: t, jobKey: `refund:${r.id}`, maxAttempts: 25 })
    await deps.audit.record(
      { action: 'REFUND_ISSUED', resource: 'PAYMENT', resourceId: p.transaction_id, severity: 'HIGH', details },
      { ...ctx, transaction: t }
    )
    return r
  }

  /** Records the provider's final word on a refund once; the payment follows for a full refund. */
  async function finish(refundId: number, outcome: 'PROCESSED' | 'FAILED', message: string, extRefundId?: string | null): Promise<boolean> {
    return sequelize.transaction(async (t) => {
      const r = await queries.finish(refundId, outcome, message.slice(0, 300), extRefundId ?? null, t)
      if (!r) return false
      if (r.kind === 'full') await queries.paymentRefundDone(r.paymentId, outcome === 'PROCESSED' ? 'REFUNDED' : 'REFUND_FAILED', t)
      await deps.audit.record(
        {
          action: outcome === 'PROCESSED' ? 'REFUND_PROCESSED' : 'REFUND_FAILED',
          resource: 'PAYMENT',
          resourceId: r.transactionId,
          severity: outcome === 'PROCESSED' ? 'MEDIUM' : 'HIGH',
          details: { refundId: r.id, amount: toGhs(r.amountPesewas), message }
        },
        // Stryker disable next-line ObjectLiteral: the entry is written either way; outside the transaction only a crash between it and the commit would differ
        { transaction: t }
      )
      return true
    })
  }

  /** The queued job: one money call per refund, whatever crashes or retries happen around it. */
  async function run(refundId: number): Promise<void> {
    const r = await queries.claimSending(refundId)
    if (!r) return
    const handler = handlers.get(r.gateway)
    if (!handler) throw new Error(`no refund handler for ${r.gateway}`)
    let answer: RefundAnswer | null = null
    // A second attempt may follow a call that went through before a crash: ask first, then send.
    if (r.attempts > 1 && handler.findRefund) answer = await handler.findRefund(r.transactionId)
    if (!answer || answer.status === 'UNCLEAR') {
      answer = await handler.refund({
        refundId: r.id,
        reference: r.transactionId,
        extId: await queries.extTransactionIdOf(r.paymentId),
        amountPesewas: r.amountPesewas,
        reason: r.reason
      })
    }
    if (answer.status === 'UNCLEAR') throw new Error(`refund ${r.id}: no clear answer (${answer.message}); asked again`)
    if (answer.status === 'SENT') {
      await queries.markSent(r.id, answer.extRefundId ?? null, answer.message)
      return
    }
    await finish(r.id, answer.status, answer.message, answer.extRefundId)
    // Stryker disable next-line ObjectLiteral,CallExpression: a log line and its fields
    log.info({ refundId: r.id, status: answer.status }, 'refund answered')
  }

  /**
   * services.payments.refund: gives back what is left of a settled payment (admin or automatic); a
   * payment that credited a wallet gives it back out of the wallet (`takeBackWalletCredit`).
   */
  async function refund(transactionId: string, reason: unknown, ctx: Ctx = {}): Promise<Refund> {
    const why = String(reason ?? '').trim()
    if (!why) throw badRequest('Please give a reason for the refund')
    if (why.length > 500) throw badRequest('Reason must be at most 500 characters')
    // Inside a caller's transaction (a delivery status change) it decides there, never on a second connection.
    const inTx = <T>(fn: (t: Transaction) => Promise<T>) => (ctx.transaction ? fn(ctx.transaction) : sequelize.transaction(fn))
    return inTx(async (t) => {
      const p = await queries.lockPayment(transactionId, t)
      if (!p) throw notFound('Payment not found')
      if (p.status !== 'SUCCESS')
        throw conflict(
          p.status === 'REFUND_PENDING' || p.status === 'REFUNDED' ? 'This payment has already been refunded' : 'Only a successful payment can be refunded'
        )
      const amountPesewas = await refundable(p, t)
      // Stryker disable next-line ConditionalExpression,EqualityOperator: at 0 issueInTx declines too (amount <= 0) and the same 409 follows below
      if (amountPesewas <= 0) throw conflict('This payment has already been refunded')
      const details = await takeBackWalletCredit(deps, p, amountPesewas, { ...ctx, transaction: t })
      const r = await issueInTx(t, p, { kind: 'full', amountPesewas, reason: why, details }, ctx)
      if (!r) throw conflict('This payment has already been refunded')
      return r
    })
  }

  /** The admin's Refund on a paid order that was not delivered (and delivery's final failure). */
  async function refundOrder(orderId: unknown, reason: unknown, ctx: Ctx = {}): Promise<Refund> {
    const id = Number(orderId)
    if (!Number.isInteger(id) || id <= 0) throw badRequest('Invalid order')
    if (!String(reason ?? '').trim()) throw badRequest('Please give a reason for the refund')
    // The check and the refund in one transaction behind the export's lock (shared; the export takes
    // it exclusive): an order is never both exported for hand delivery and refunded (ADR 0021).
    const inTx = <T>(fn: (t: Transaction) => Promise<T>) => (ctx.transaction ? fn(ctx.transaction) : sequelize.transaction(fn))
    return inTx(async (t) => {
      await queries.lockAgainstExport(t)
      const o = await queries.order(id, t)
      if (!o) throw notFound('Order not found')
      if (o.delivered) throw conflict('This order has been delivered and cannot be refunded')
      // While the vendor may still deliver it, refunding could give both the data and the money back.
      if (o.deliveryStatus === 'QUEUED' || o.deliveryStatus === 'PROCESSING') throw conflict('This order is being delivered; refund it if the delivery fails')
      if (o.paymentStatus === 'REFUNDED') throw conflict('This order has already been refunded')
      if (o.paymentStatus !== 'SUCCESS' || !o.paymentTransactionId) throw conflict('Only a paid order can be refunded')
      return refund(o.paymentTransactionId, reason, { ...ctx, transaction: t })
    })
  }

  /**
   * The admin's Refund on a payment by its reference: an order's payment keeps the order's checks
   * (`refundOrder`), a top-up or a bulk order's payment the wallet's rule (`refund`). Other purposes
   * (agent fee, AFA, checker cards) bought something this refund would not take back.
   */
  async function refundPayment(transactionId: unknown, reason: unknown, ctx: Ctx = {}): Promise<Refund> {
    const tid = String(transactionId ?? '')
    // Stryker disable next-line Regex: references are digits only (newTransactionId, the spec's integer), so a text either anchor lets through matches no payment: the same 404
    const p = /^\d{1,20}$/.test(tid) ? await queries.paymentPurpose(tid) : undefined
    if (!p) throw notFound('Payment not found')
    if (p.orderId) return refundOrder(p.orderId, reason, ctx)
    if (p.purpose !== 'wallet_topup' && p.purpose !== 'batch')
      throw conflict("Only an order's payment, a wallet top-up or a bulk order payment can be refunded here")
    return refund(tid, reason, ctx)
  }

  /**
   * Delivery failed for good: refunds when the shop's setting says so; an order paid from an agent's
   * wallet always goes back to the wallet. Otherwise nothing: the admin decides.
   */
  async function onDeliveryFailed(orderId: number, reason: string, ctx: Ctx = {}): Promise<Refund | null> {
    const gateway = await queries.orderGateway(orderId, ctx.transaction)
    // Stryker disable next-line ObjectLiteral: read on another connection the settings are the same; no caller changes them in this transaction
    const s = await deps.settings.getFresh({ transaction: ctx.transaction })
    if (!s.refundOnDeliveryFailure && gateway !== 'wallet') return null
    try {
      return await refundOrder(orderId, reason || 'Delivery failed', ctx)
    } catch (err) {
      if ((err as { status?: number }).status === 409) return null
      throw err
    }
  }

  /** An admin retries a refund the provider refused. */
  async function retry(refundId: unknown, ctx: Ctx = {}): Promise<void> {
    const id = Number(refundId)
    if (!Number.isInteger(id) || id <= 0) throw badRequest('Invalid refund')
    await sequelize.transaction(async (t) => {
      const r = await queries.reopenFailed(id, t)
      if (!r) throw conflict('Only a failed refund can be retried')
      if (r.kind === 'full') await queries.paymentRefundRetried(r.paymentId, t)
      await deps.queue.enqueue(REFUND_TASK, { refundId: r.id }, { transaction: t, jobKey: `refund:${r.id}`, maxAttempts: 25 })
      await deps.audit.record(
        { action: 'REFUND_RETRIED', resource: 'PAYMENT', resourceId: r.transactionId, severity: 'HIGH', details: { refundId: r.id } },
        { ...ctx, transaction: t }
      )
    })
  }

  /** A gateway refund event (Paystack refund.processed / refund.failed): finishes our refund for that reference. */
  async function onGatewayEvent(reference: string, status: string, extRefundId: string | null, message: string): Promise<boolean> {
    const outcome = status === 'processed' ? 'PROCESSED' : status === 'failed' ? 'FAILED' : null
    const r = await queries.openForEvent(extRefundId, reference)
    if (!r) return queries.anyFor(reference)
    if (!outcome) {
      await queries.noteExtRefundId(r.id, extRefundId)
      return true
    }
    await finish(r.id, outcome, message, extRefundId)
    return true
  }

  return {
    refundable,
    issueInTx,
    run,
    finish,
    refund,
    refundOrder,
    refundPayment,
    onDeliveryFailed,
    retry,
    onGatewayEvent
  }
}

export type Refunds = ReturnType<typeof createRefunds>
