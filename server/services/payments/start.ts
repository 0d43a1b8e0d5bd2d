import type { Sequelize, Transaction } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { publicOrigin } from '../../lib/origin.ts'
import type { Ctx } from '../context.ts'
import type { Queue } from '../queue/index.ts'
import { WAITING_MESSAGE } from './paystack.ts'
import { GatewayError, isFinal, type GatewayResult, type PaymentProvider, type PaymentRow, type StartResult } from './provider.ts'
import { createStartQueries, type StartAnswer } from './queries-start.ts'
import type { createSettlement } from './settle.ts'

export const START_TASK = 'payments.start'

interface StartDeps {
  sequelize: Sequelize
  queue: Queue
  log: Logger
  provider: PaymentProvider
  settlement: ReturnType<typeof createSettlement>
  publicUrl?: string
}

/**
 * Starting a charge, asking the gateway about it, and the payer's voucher. An answer that is not
 * the gateway's word (timeout, 5xx, 429, non-JSON, duplicate reference) never fails a payment: it
 * stays pending with a note and is asked again (ADR 0013).
 */
export function createStarter(deps: StartDeps) {
  const { sequelize, log, provider, settlement } = deps
  const { settle, load } = settlement
  const queries = createStartQueries(sequelize)

  /**
   * Applies what the gateway said at the start of a charge, and returns the row as it now is (null
   * when something after it changed the row again). Its word and the move to IN_PROGRESS (the
   * payment and its order) are one statement: one commit for the browser to wait on, not three.
   * A failed start settles the one exactly-once way.
   */
  /** What the gateway's word at a charge's start does: whether it fails the payment, and ANSWER's parameters. */
  function answerOf(row: PaymentRow, start: StartResult): { fails: boolean; answer: StartAnswer } {
    const unclear = !!start.unclear
    const fails = !unclear && (start.status === 'FAILED' || (row.method === 'card' && !start.authorizationUrl))
    const advance = !unclear && !fails && !isFinal(start.status)
    const answer = {
      transactionId: row.transaction_id,
      extId: start.extId ?? null,
      message: start.message || null,
      authorizationUrl: start.authorizationUrl ?? row.details?.authorizationUrl ?? null,
      unclear: unclear ? (start.note ?? 'No clear answer from the gateway') : null,
      toInProgress: advance && start.status === 'IN_PROGRESS',
      setNeeds: advance && start.needs !== undefined,
      needs: start.needs ?? null
    }
    return { fails, answer }
  }

  async function apply(row: PaymentRow, start: StartResult, ctx: Ctx): Promise<PaymentRow | null> {
    const { fails, answer } = answerOf(row, start)
    const unclear = answer.unclear !== null
    const after = await queries.answer(answer)
    if (unclear) {
      log.warn({ transactionId: row.transaction_id, note: start.note }, 'charge start without a clear answer: payment stays pending and is asked again')
      return after ?? null
    }
    if (fails) {
      const out = await settle(row.transaction_id, { status: 'FAILED', message: start.message || `${provider.label} authorization URL not received` }, ctx)
      return out.row
    }
    return after ?? null
  }

  /**
   * Calls the gateway for a payment written as PENDING; a second call for the same payment does
   * nothing. Returns the row after the gateway's answer (null when there was nothing to start, or
   * when a voucher changed it again).
   */
  async function startCharge(transactionId: string, ctx: Ctx = {}): Promise<PaymentRow | null> {
    const row = await queries.claimStart(transactionId)
    return row ? startClaimed(row, ctx) : null
  }

  /**
   * The gateway call for a row whose start is already claimed (`startedAt` set): by startCharge, or
   * written claimed in the transaction of its order. Outside any transaction: the row is committed,
   * so the gateway's webhook and our own checks can find it. Should this process die before the
   * answer is written, the payment stays pending and reconciliation asks the gateway about it.
   */
  async function startClaimed(row: PaymentRow, ctx: Ctx = {}, opts: { answerBehind?: boolean } = {}): Promise<PaymentRow | null> {
    const start = await callGateway(row)
    const behind = opts.answerBehind ? answerBehind(row, start) : undefined
    if (behind) return behind
    const after = await apply(row, start, ctx)
    // A voucher typed up front (USSD, same dial) answers the gateway's request for one at once.
    const voucher = row.details?.voucher as string | undefined
    if (!voucher) return after
    if (start.needs === 'otp')
      await submitCode(row.transaction_id, voucher, ctx).catch((err) =>
        log.warn({ err: { message: (err as Error).message }, transactionId: row.transaction_id }, 'voucher not accepted')
      )
    await queries.forgetVoucher(row.transaction_id)
    return null
  }

  /**
   * For a browser waiting on its order (ADR 0064): when the gateway's word is clear and moves nothing (the payment stays
   * PENDING, nothing is asked of the payer, no voucher follows), it is only words to keep (its reference, message,
   * checkout URL). Its statement is then sent and not waited for, and the row is returned as that statement leaves it.
   * The order and its claimed payment are already flushed; a word that is never written leaves the payment PENDING and
   * claimed, which reconciliation asks the gateway about by its reference, as after a crash (ADR 0046). Undefined when
   * the answer must be written before the browser hears it.
   */
  function answerBehind(row: PaymentRow, start: StartResult): PaymentRow | undefined {
    const { fails, answer } = answerOf(row, start)
    const movesNothing = !fails && start.status === 'PENDING' && answer.unclear === null && !answer.setNeeds && !row.details?.voucher
    if (!movesNothing || row.status !== 'PENDING') return undefined
    queries
      .answer(answer)
      .catch((err) =>
        log.warn(
          { err: { message: (err as Error).message }, transactionId: row.transaction_id },
          "the gateway's answer to a charge's start was not saved: the payment stays pending and reconciliation asks the gateway"
        )
      )
    return {
      ...row,
      ext_transaction_id: answer.extId ?? row.ext_transaction_id,
      message: answer.message ?? row.message,
      details: { ...row.details, authorizationUrl: answer.authorizationUrl }
    }
  }

  /** The gateway asked to start the charge; an answer that is not its word is an unclear start, never a failure. */
  async function callGateway(row: PaymentRow): Promise<StartResult> {
    try {
      return row.method === 'card'
        ? await provider.startCard({
            reference: row.transaction_id,
            amountPesewas: row.amount_pesewas,
            email: row.email!,
            callbackUrl: (row.details?.callbackUrl as string | undefined) ?? (deps.publicUrl ? `${publicOrigin(deps.publicUrl)}/payment-callback` : null)
          })
        : await provider.startMomo({
            reference: row.transaction_id,
            amountPesewas: row.amount_pesewas,
            phone: row.payer_phone!,
            network: row.payer_network as 'MTN',
            email: row.email!
          })
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err
      return { status: 'PENDING', message: WAITING_MESSAGE, unclear: true, note: err.message }
    }
  }

  /** USSD: the charge starts in a queued job, so the hop answers at once. */
  async function startLater(transactionId: string, transaction?: Transaction): Promise<void> {
    await deps.queue.enqueue(START_TASK, { transactionId }, { jobKey: `start:${transactionId}`, maxAttempts: 3, transaction })
  }

  /**
   * Asks the gateway about a payment and settles on its answer. A conditional UPDATE on
   * last_checked_at claims the question, so all instances together ask no faster than the gateway
   * allows. Recently EXPIRED/FAILED payments are asked too: late money is never dropped.
   */
  async function checkGateway(transactionId: string): Promise<{ row: PaymentRow | null; asked: boolean }> {
    const row = await load(transactionId)
    // A wallet payment (or one from another provider) is never asked of this gateway.
    if (!row || row.gateway !== provider.name || row.method === 'wallet') return { row, asked: false }
    const lateWindow = row.status === 'EXPIRED'
    if (isFinal(row.status) && !lateWindow) return { row, asked: false }
    const secs = provider.minCheckIntervalMs(row.method) / 1000
    const claimed = await queries.claimCheck(transactionId, secs)
    if (!claimed) return { row, asked: false }
    let result: GatewayResult
    try {
      result = await provider.check(claimed)
    } catch (err) {
      log.warn({ err: { message: (err as Error).message }, transactionId }, 'payment status check failed')
      return { row, asked: false }
    }
    if (isFinal(claimed.status) && result.status !== 'SUCCESS') return { row: claimed, asked: true }
    const out = await settle(transactionId, result, {})
    return { row: out.row ?? (await load(transactionId)), asked: true }
  }

  /** The payer's voucher / OTP for a charge that asked for one (Paystack send_otp; Telecel vouchers). */
  async function submitCode(transactionId: string, code: unknown, ctx: Ctx = {}): Promise<PaymentRow> {
    const text = String(code ?? '').trim()
    if (!/^[0-9A-Za-z]{3,12}$/.test(text)) throw badRequest('Please enter the code you received')
    const row = await load(transactionId)
    if (!row) throw notFound('Transaction not found')
    const needs = row.details?.needs as 'otp' | 'pin' | 'phone' | null | undefined
    if (isFinal(row.status) || !needs) throw conflict('This payment is not waiting for a code')
    let r: StartResult
    try {
      r = await provider.submitCode(row, needs, text)
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err
      r = { status: 'PENDING', message: WAITING_MESSAGE, unclear: true, note: err.message }
    }
    if (r.rejected) {
      await queries.noteRejectedCode(transactionId, r.message)
    } else if (r.unclear) {
      await settlement.progress(transactionId, { status: 'IN_PROGRESS', message: WAITING_MESSAGE, needs: null })
    } else if (r.status === 'FAILED') {
      await settle(transactionId, r, ctx)
    } else {
      await settlement.progress(transactionId, { ...r, needs: r.needs ?? null, status: 'IN_PROGRESS' })
    }
    return (await load(transactionId))!
  }

  /** Has this open payment outlived its gateway's window for the payer? */
  function pastWindow(row: Pick<PaymentRow, 'method' | 'created_at'>, overrideSecs: number | null): boolean {
    if (row.method === 'wallet') return false // paid at once, never waiting on a payer
    const ms = overrideSecs !== null ? overrideSecs * 1000 : provider.expireAfterMs(row.method)
    return new Date(row.created_at).getTime() + ms < Date.now()
  }

  /**
   * One open payment: asked at the gateway's pace and settled on its word; past the payer's window
   * and still unanswered, EXPIRED (late money is still settled or refunded when it comes).
   */
  async function reconcileOne(transactionId: string, overrideSecs: number | null = null): Promise<'settled' | 'expired' | 'open'> {
    const { row, asked } = await checkGateway(transactionId)
    if (!row) return 'open'
    if (isFinal(row.status)) return asked ? 'settled' : 'open'
    if (!pastWindow(row, overrideSecs)) return 'open'
    // Throttled this round: ask again next run rather than expire a payment that may just have gone through.
    if (!asked && row.gateway === provider.name) return 'open'
    const out = await settle(transactionId, { status: 'EXPIRED', message: 'Payment expired' })
    return out.settled ? 'expired' : 'open'
  }

  /** Open payments past their gateway's window are asked once more, and expired when still unanswered. */
  async function expireStale(olderThanMinutes?: number): Promise<{ checked: number; settled: number; expired: number }> {
    const override = olderThanMinutes ? Math.max(1, Math.floor(olderThanMinutes)) * 60 : null
    const stale = await queries.staleOpen(override ?? provider.expireAfterMs('momo') / 1000, override ?? provider.expireAfterMs('card') / 1000)
    let settled = 0
    let expired = 0
    for (const tid of stale) {
      const r = await reconcileOne(tid, override)
      if (r === 'settled') settled++
      if (r === 'expired') expired++
    }
    return { checked: stale.length, settled, expired }
  }

  return { apply, startCharge, startClaimed, startLater, checkGateway, submitCode, expireStale, reconcileOne }
}
