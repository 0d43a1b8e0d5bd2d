import type { Transaction } from 'sequelize'
import { transactionOn } from '../../../models/transaction.ts'
import { ghsText, toGhs } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import type { Settings } from '../settings/index.ts'
import { fillTemplate, formatDataSize } from '../sms/index.ts'
import { post as postWalletEntry } from '../wallet/ledger.ts'
import { isFinal, type GatewayResult, type PaymentRow } from './provider.ts'
import { createSettleQueries, type PaidOrder, type SettleBefore, type TextOrder } from './queries-settle.ts'
import { afaOfPayment } from './settle-afa.ts'
import { createSettleAlone, runsAlone } from './settle-alone.ts'
import type { SettleDeps, SettleOutcome } from './settle-deps.ts'
import { verdict } from './settle-verdict.ts'
import { gatewaySuccessWritten, type OwnOrderText, settledOnWrite, type WalletPaid } from './settle-written.ts'

/**
 * Exactly-once settlement. Whoever arrives first (webhook, callback, status check, Complete Order,
 * the reconcile job) runs the conditional UPDATE ... WHERE status IN ('PENDING','IN_PROGRESS')
 * RETURNING; PostgreSQL lets one transaction win the row, and the effects (order status, commission,
 * audit, SMS, agent fee, AFA registration) run in that same transaction. Everyone else gets no row and
 * does nothing. commissions.order_id and afa_registrations.payment_transaction_id are unique as a
 * second fence.
 */
export function createSettlement(deps: SettleDeps) {
  const { sequelize, log } = deps
  const queries = createSettleQueries(sequelize)
  const load = queries.load
  const settleAlone = createSettleAlone({ sequelize, log, queries, effects })

  /** A non-final word from the gateway: PENDING -> IN_PROGRESS at most, never backwards. */
  async function progress(transactionId: string, result: GatewayResult): Promise<void> {
    const row = await queries.progress(transactionId, {
      status: result.status,
      message: result.message || null,
      extId: result.extId ?? null,
      setNeeds: result.needs !== undefined,
      needs: result.needs ?? null
    })
    if (row?.orderId && row.status === 'IN_PROGRESS') await queries.orderInProgress(row.orderId)
  }

  /**
   * The purchase's effects; returns false when a success cannot be honoured (the money then goes back).
   * `paid`: the order as the settling statement already paid it (undefined: it was in no open state), and
   * whether that statement wrote its commission (undefined: it left the commission to `recordForOrder`).
   */
  async function effects(
    p: PaymentRow,
    ctx: Ctx & { transaction: Transaction },
    settings: Settings,
    late = false,
    paid?: { order: PaidOrder | undefined; commissionRecorded: boolean | undefined; textId?: number | null; entryWritten?: boolean }
  ): Promise<boolean> {
    const t = ctx.transaction
    let honoured = true
    // A late success may still honour an order that had been closed as FAILED/EXPIRED (ADR 0013).
    const openStates = late ? ['PENDING', 'IN_PROGRESS', 'FAILED', 'EXPIRED'] : ['PENDING', 'IN_PROGRESS']
    const success = p.status === 'SUCCESS'
    const details: Record<string, unknown> = {
      transactionId: p.transaction_id,
      purpose: p.purpose,
      amount: toGhs(p.amount_pesewas),
      gateway: p.gateway,
      method: p.method,
      extTransactionId: p.ext_transaction_id,
      status: p.status,
      message: p.message,
      ...(p.simulated ? { simulated: true } : {})
    }

    if (p.purpose === 'data' && p.order_id) {
      // Paid and, when delivery is automatic, queued for its vendor in one statement (ADR 0024).
      const viaDelivery = !!deps.delivery && settings.deliveryMode !== 'manual'
      const order = paid ? paid.order : await queries.payOrder(p.order_id, p.status, openStates, success && viaDelivery, t)
      details.orderId = p.order_id
      if (!order && success) honoured = false
      if (order && success) {
        // The settling statement decided the commission when the order's amount is the one it was computed on.
        details.commissionRecorded = paid?.commissionRecorded ?? (await deps.commissions.recordForOrder(order, settings, t))
        // The order-created text: when the order goes to a vendor, its delivery job sends it (one job
        // per order instead of one per text); otherwise it gets its own job below.
        const vars = { dataSize: formatDataSize(order.data_size_mb), network: order.network, recipientNumber: order.recipient_number }
        let smsId: number | null = null
        // A bulk order's lines text their recipients only when the agent asked, at acceptance (ADR 0039):
        // a thousand "order received" texts to the agent's own phone would tell them nothing.
        // Stryker disable next-line ConditionalExpression,BlockStatement: a fence no input reaches: a bulk order's lines are written and settled together in one transaction (settleLines), so no order that reaches here has a batch
        if (order.batch_id) {
          smsId = null
        } else if (paid?.textId !== undefined) {
          // Written by the order's own statement (a wallet order, ADR 0075): its dispatch is all that is left.
          smsId = paid.textId
          if (smsId && !viaDelivery) await deps.sms.enqueue(smsId, { transaction: t })
        } else if (order.agent_id) {
          // The agent paying (wallet, USSD) is the one signed in: its phone is already in hand.
          // Stryker disable next-line ConditionalExpression,EqualityOperator,OptionalChaining: it only saves a read: a caller passes a signed-in user only to settle that user's own order (a wallet order, a free one), so the agent is the order's agent or absent
          const own = ctx.user?.agent?.id === order.agent_id ? ctx.user?.agent : null
          const [agent] = own ? [own] : [await queries.agentPhone(order.agent_id, t)]
          if (agent && settings.smsOrderCreatedAgent)
            smsId = await deps.sms.send(agent.phone, fillTemplate(settings.smsOrderCreatedAgent, vars), { transaction: t, defer: viaDelivery })
          // Testing the template only saves a call: sms.send writes nothing for an empty text.
        } else if (settings.smsOrderCreatedUser) {
          smsId = await deps.sms.send(order.payment_phone_number || order.recipient_number, fillTemplate(settings.smsOrderCreatedUser, vars), {
            transaction: t,
            defer: viaDelivery
          })
        }
        const sms = smsId ? [smsId] : []
        // Same transaction: the delivery job exists exactly when the payment is SUCCESS (ADR 0012).
        if (deps.delivery) details.deliveryQueued = await deps.delivery.onPaid(order, t, viaDelivery ? sms : [])
        // Stryker disable next-line ObjectLiteral: a fence no input reaches: an order paid while delivery is automatic is always NOT_STARTED here, so its payment's UPDATE queues it
        if (viaDelivery && !details.deliveryQueued) for (const id of sms) await deps.sms.enqueue(id, { transaction: t })
      }
      if (order)
        await deps.events.publish(
          'order.settled',
          { orderId: order.id, agentId: order.agent_id, ...(order.agent_hooked === undefined ? {} : { agentHooked: order.agent_hooked }) },
          { transaction: t }
        )
    }

    if ((p.purpose === 'wallet_topup' || p.purpose === 'batch') && p.agent_id) {
      details.agentId = p.agent_id
      // Stryker disable next-line EqualityOperator: no top-up or bulk payment is for 0: a top-up is positive (topupBody) and a package costs at least 0.01 GHS
      if (success && p.amount_pesewas > 0) {
        // One credit per top-up payment: settlement runs once, and the ledger's unique index fences it again.
        // A bulk order's payment lands in the wallet first and pays the batch from it (ADR 0039), so its
        // lines are refunded like any batch line, and money for a batch cancelled meanwhile stays there.
        const { entry, balancePesewas } = await postWalletEntry(
          sequelize,
          {
            agentId: p.agent_id,
            type: 'TOPUP',
            amountPesewas: p.amount_pesewas,
            reason: `${p.purpose === 'batch' ? 'Bulk order payment' : 'Top-up'} by ${p.method === 'card' ? 'card' : 'mobile money'}`,
            actorUserId: p.user_id,
            paymentTransactionId: p.transaction_id
          },
          t
        )
        details.walletCredited = !!entry
        details.walletBalance = toGhs(balancePesewas)
      }
      // Stryker disable next-line ConditionalExpression: a top-up's reference names no batch awaiting payment, so the bulk capability's subscriber finds none and does nothing
      if (p.purpose === 'batch')
        await deps.events.publish('batch.paymentSettled', { transactionId: p.transaction_id, paid: success }, { ...ctx, transaction: t })
    }

    if (p.purpose === 'agent_fee' && p.agent_id) {
      details.agentId = p.agent_id
      // A paid agent is never downgraded by an older attempt; a failure only counts for the attempt on record.
      const moved = await queries.agentFeeSettled(p.agent_id, p.transaction_id, p.status, success, t)
      // Already paid by another attempt: this money is not needed.
      if (success && !moved) honoured = false
    }

    // Stryker disable next-line ConditionalExpression: the branch does nothing for other purposes: they carry neither an AFA form nor a registration
    if (p.purpose === 'afa') {
      const regId = await afaOfPayment(queries, p, success, t)
      if (regId !== undefined) details.afaRegistrationId = regId
    }

    if (p.purpose === 'voucher' && success) {
      // Nobody to supply the cards means the money goes back: the outcome starts unhonoured.
      // Stryker disable next-line BooleanLiteral: the vouchers capability's subscriber, always wired, replaces honoured whatever it starts as
      const outcome = { honoured: false, details: {} as Record<string, unknown> }
      await deps.events.publish('voucher.paid', { payment: p, settings, outcome }, ctx)
      details.vouchers = outcome.details
      if (!outcome.honoured) honoured = false
    }

    // Written already by the order's own statement (a wallet order, ADR 0079): the same entry, from the same facts.
    if (!paid?.entryWritten)
      await deps.audit.record(
        {
          action: success ? 'PAYMENT_SUCCESS' : 'PAYMENT_FAILED',
          resource: 'PAYMENT',
          resourceId: p.transaction_id,
          severity: success ? (late ? 'HIGH' : 'LOW') : 'MEDIUM',
          userId: p.user_id,
          details: { ...details, ...(late ? { late: true, honoured } : {}) }
        },
        { ...ctx, transaction: t }
      )
    return honoured
  }

  /**
   * `opts.settings`: a caller settling inside its own transaction passes settings it read before
   * opening it, so settlement never needs a second pool connection while that transaction holds one.
   * `opts.before`: the columns settlement decides from, as a gateway event's handler read them just before (to see
   * whose the payment is), so they are not read again: the settling UPDATE's condition is the fence, as for a row read
   * here outside a transaction. That caller has the payment already: an outcome that settled nothing has a null row.
   * `opts.whenSettled`: the caller's own write, run in the settling transaction when this call settles
   * the payment (a gateway event marked handled), so the settlement's commit keeps it too.
   * `opts.eventSettled`: that gateway event's id, for the settling statement run alone to mark it itself (the same
   * mark, `whenSettled`'s, in the statement's own commit): a caller's write then needs no transaction.
   */
  async function settle(
    transactionId: string,
    result: GatewayResult,
    ctx: Ctx = {},
    opts: {
      settings?: Settings
      before?: SettleBefore
      beforeOrder?: TextOrder | null
      whenSettled?: (t: Transaction) => Promise<void>
      eventSettled?: number
    } = {}
  ): Promise<SettleOutcome> {
    if (!isFinal(result.status)) {
      await progress(transactionId, result)
      // Stryker disable next-line BooleanLiteral: the callers that read `settled` (reconcileOne's expiry, the wallet's and the checkers' wallet payments) only ever pass a final word
      return { settled: false, row: await load(transactionId) }
    }
    const loaded = opts.before ? null : await queries.loadWithOrder(transactionId, ctx.transaction)
    const read = opts.before ? { row: opts.before, order: opts.beforeOrder ?? null } : loaded
    const before = read?.row
    // Stryker disable next-line BooleanLiteral: the callers that read `settled` settle a payment they have just read (reconcileOne) or written (the wallet's payments): none reaches this with an unknown reference
    if (!before) return { settled: false, row: null }
    // Money that arrives after we gave up (EXPIRED, or FAILED without the gateway's word) is never dropped.
    const late = (before.status === 'EXPIRED' || before.status === 'FAILED') && result.status === 'SUCCESS'
    // Stryker disable next-line ConditionalExpression: the settling UPDATE's `from` (PENDING/IN_PROGRESS unless late) refuses the same closed payments with the same answer: this return only saves a transaction
    if (isFinal(before.status) && !late) return { settled: false, row: loaded?.row ?? null }
    let status = result.status
    let message = result.message
    let v: ReturnType<typeof verdict> | null = null
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a payment of 0 meets no gateway: open.ts ("No payment required") and the wallet settle it with 0 GHS, which verdict accepts with no excess; verifying it would only write details.paid = 0, which nothing reads for a payment of 0
    const due = before.amount_pesewas > 0
    if (status === 'SUCCESS' && due) {
      v = verdict(before.amount_pesewas, result)
      if (!v.ok) {
        // Stryker disable next-line CallExpression: a log line, left out like the texts
        log.error(
          // Stryker disable next-line ObjectLiteral: a log line's fields
          { transactionId, due: before.amount_pesewas, paid: v.paid, currency: v.currency },
          'gateway reported success with a wrong amount or currency: refunding'
        )
        status = 'FAILED'
        message = `${v.why}: the money is being refunded`
      }
    }
    const from = late ? ['EXPIRED', 'FAILED'] : ['PENDING', 'IN_PROGRESS']
    // A data payment's order is paid by the settling statement itself (ADR 0055) whenever effects will pay
    // it (not for a late payment of the wrong amount, which touches nothing) and the settings that decide
    // its queueing are in hand without a read inside the transaction: the caller's, or else the cached copy
    // (read before the transaction opens), then written only while the settings row is still its version.
    const payHere = before.purpose === 'data' && !!before.order_id && !(late && v && !v.ok)
    const known = opts.settings ?? (payHere && !ctx.transaction ? await deps.settings.get() : undefined)
    const version = opts.settings || !known ? null : deps.settings.versionOf(known)
    const pay =
      payHere && known && (opts.settings || version)
        ? {
            openStates: late ? ['PENDING', 'IN_PROGRESS', 'FAILED', 'EXPIRED'] : ['PENDING', 'IN_PROGRESS'],
            queue: status === 'SUCCESS' && !!deps.delivery && known.deliveryMode !== 'manual',
            version,
            // Only a success earns one (null: none); written only for an order of the payment's amount.
            commission: status === 'SUCCESS' ? deps.commissions.ofPaid(before.amount_pesewas, known) : null
          }
        : null
    // What effects would write first for a success paid here, written by the settling statement instead (ADR 0086).
    const written =
      pay && status === 'SUCCESS' && !late ? gatewaySuccessWritten(deps, before, read?.order ?? null, known!, { status, message: message || null }, ctx) : {}
    const word = { status, message: message || null, extId: result.extId ?? null, paidPesewas: v?.paid ?? null, currency: v?.currency ?? null, from }
    if (runsAlone(!!ctx.transaction, opts, pay, v, written)) {
      const done = await settleAlone(transactionId, word, pay, { ...written, event: opts.eventSettled }, known!, ctx)
      if (done) return done
    }
    // A caller that already holds a transaction (a wallet-paid order) settles inside it. Otherwise its START
    // TRANSACTION and COMMIT go straight on the connection (ADR 0065): every gateway payment's settlement opens one.
    const within = <T>(fn: (t: Transaction) => Promise<T>) => (ctx.transaction ? fn(ctx.transaction) : transactionOn(sequelize, fn))
    const settleIn = async (t: Transaction): Promise<SettleOutcome> => {
      // The settings row's version rides along: settings are read only when they changed (ADR 0024).
      const won = await queries.settle(transactionId, word, pay, t, written)
      if (!won) return { settled: false, row: await load(transactionId, t) }
      const { row, settingsVersion } = won
      // Paid by the statement, or (settings saved since the copy, or not in hand) by effects as before.
      const paid = won.paidHere
        ? {
            order: won.order,
            commissionRecorded: won.order?.amount_pesewas === before.amount_pesewas ? won.commissionRecorded : undefined,
            ...(won.textId !== undefined ? { textId: won.textId } : {}),
            entryWritten: won.entryWritten
          }
        : undefined
      const tctx = { ...ctx, transaction: t }
      // Fresh (never a stale cached copy: money decisions), read on this transaction's own connection,
      // unless the caller read them before opening its transaction (a wallet order).
      // Stryker disable next-line ObjectLiteral: read on another connection the settings are the same; no settlement changes them in its transaction
      const settings = opts.settings ?? (await deps.settings.freshAt(settingsVersion, { transaction: t }))
      if (v && !v.ok) {
        // Nothing is delivered; what came in goes back, once (the refund row is unique per payment).
        if (!late) await effects(row, tctx, settings, false, paid)
        // Stryker disable next-line ConditionalExpression: at 0 paid nothing is refundable (details.paid is 0), so issueInTx declines just the same; this only saves its read
        if (v.paid !== 0) await deps.refunds.issueInTx(t, row, { kind: 'full', amountPesewas: v.paid ?? undefined, reason: v.why! }, tctx)
        await deps.attention.note(
          {
            kind: 'wrong_amount',
            key: transactionId,
            transactionId,
            summary: v.why!,
            actionTaken: v.paid === 0 ? 'Payment failed; nothing to refund' : 'Payment failed and the money that came in is being refunded automatically',
            details: { due: toGhs(before.amount_pesewas), paid: toGhs(v.paid), currency: v.currency }
          },
          t
        )
        // Stryker disable next-line BooleanLiteral: no caller that reads `settled` meets a wrong amount: the wallet's payments pass the price itself, in GHS
        return { settled: true, row: (await load(transactionId, t)) ?? row }
      }
      const honoured = await effects(row, tctx, settings, late, paid)
      // Effects leave only a success unhonoured; the status is asked again so that money which never came in is never refunded.
      // Stryker disable next-line ConditionalExpression: effects return false only for a success (each `honoured = false` sits behind `success`), so `true` changes nothing; `false` is the next line's own `false`
      const succeeded = status === 'SUCCESS'
      const refundAll = !honoured && succeeded
      // Read again only when this transaction changed the row after its UPDATE (a full refund, an AFA
      // registration): a plain settlement returns what its UPDATE returned, one round trip fewer. An
      // excess refund leaves the payment row as it was.
      // Stryker disable next-line ConditionalExpression: a row nothing changed reads back as it was: `true` only reads more (each part's `false` fails settle-outcomes, checked by hand)
      const changedAgain = row.purpose === 'afa' || refundAll
      if (refundAll) {
        await deps.refunds.issueInTx(
          t,
          row,
          {
            kind: 'full',
            reason: late
              ? 'Paid after the payment had closed and the purchase could not be honoured'
              : row.purpose === 'voucher'
                ? 'Out of stock: no card could be supplied'
                : 'Paid for something already paid'
          },
          tctx
        )
      } else if (v && v.excess > 0) {
        await deps.refunds.issueInTx(t, row, { kind: 'excess', amountPesewas: v.excess, reason: `Overpaid by ${ghsText(v.excess)}` }, tctx)
        await deps.attention.note(
          {
            kind: 'overpaid',
            key: transactionId,
            transactionId,
            summary: `Overpaid by ${ghsText(v.excess)}`,
            actionTaken: 'Settled; the difference is being refunded automatically'
          },
          t
        )
      }
      if (late) {
        await deps.attention.note(
          {
            kind: 'late_success',
            key: transactionId,
            transactionId,
            summary: `Payment succeeded after it was ${before.status}`,
            actionTaken: honoured ? 'Settled automatically: the purchase proceeds' : 'Refunded automatically: the purchase could not be honoured',
            details: { previousStatus: before.status, purpose: before.purpose }
          },
          t
        )
      }
      // Stryker disable next-line ObjectLiteral,CallExpression: a log line (its call and its fields)
      log.info({ transactionId, status, purpose: row.purpose, late }, 'payment settled')
      return { settled: true, row: changedAgain ? ((await load(transactionId, t)) ?? row) : row }
    }
    return within(async (t) => {
      const outcome = await settleIn(t)
      if (outcome.settled && opts.whenSettled) await opts.whenSettled(t)
      return outcome
    })
  }

  /**
   * The effects of a success that its order's statement wrote already settled (`settledOnWrite`), in the caller's
   * transaction: the same `effects` a settling UPDATE's winner runs (the text, the delivery queue's entry, the
   * order.settled event, the PAYMENT_SUCCESS entry), from the rows that statement returned. The statement inserted
   * the payment, so no one else can have settled it: exactly once is the insert's (the payment's unique reference).
   */
  async function settledAsWritten(
    row: PaymentRow,
    paid: { order: PaidOrder; commissionRecorded: boolean; textId?: number | null; entryWritten?: boolean },
    ctx: Ctx & { transaction: Transaction },
    settings: Settings
  ): Promise<PaymentRow> {
    // Stryker disable next-line ConditionalExpression: a fence no input reaches: the caller's statement inserted this order paid
    if (!(await effects(row, ctx, settings, false, paid))) throw new Error('a payment written settled was not honoured')
    // Stryker disable next-line ObjectLiteral,CallExpression: a log line (its call and its fields)
    log.info({ transactionId: row.transaction_id, status: row.status, purpose: row.purpose, late: false }, 'payment settled')
    return row
  }

  return {
    settle,
    progress,
    load,
    loadWithOrder: queries.loadWithOrder,
    settledOnWrite: (amountPesewas: number, settings: Settings, paid: WalletPaid, ctx: Ctx, own?: OwnOrderText) =>
      settledOnWrite(deps, amountPesewas, settings, paid, ctx, own),
    settledAsWritten
  }
}
