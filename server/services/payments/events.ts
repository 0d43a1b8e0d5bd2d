import type { Sequelize, Transaction } from 'sequelize'
import type { Logger } from '../../lib/logger.ts'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { Attention } from './attention.ts'
import type { Events as Bus } from '../events/index.ts'
import { resultOf, type PaystackEvent } from './paystack.ts'
import { createEventQueries } from './queries-events.ts'
import { createRefundQueries } from './queries-refund.ts'
import type { Refunds } from './refund.ts'
import type { SettleBefore, TextOrder } from './queries-settle.ts'
import type { SettleOutcome } from './settle-deps.ts'

export interface EventDeps {
  sequelize: Sequelize
  audit: AuditService
  attention: Attention
  refunds: Refunds
  log: Logger
  events: Pick<Bus, 'publish'>
  /** Other capabilities' gateway events by name prefix (payouts take 'transfer.'); they answer whether it was theirs. */
  routes?: { prefix: string; handle: EventHandler }[]
  settle(
    transactionId: string,
    result: ReturnType<typeof resultOf>,
    ctx?: Ctx,
    opts?: { before?: SettleBefore; beforeOrder?: TextOrder | null; whenSettled?: (t: Transaction) => Promise<void>; eventSettled?: number }
  ): Promise<SettleOutcome>
}

export type EventHandler = (e: PaystackEvent, ctx: Ctx) => Promise<{ handled: boolean; note: string }>

/**
 * Every signed gateway event is kept once (gateway_events, unique by its key) before anything else
 * happens (its row durable before the gateway is answered: see `store` in queries-events.ts); events we do not handle, or for references we never issued, stay unhandled and show on
 * the attention page with their payload.
 */
export function createEvents(deps: EventDeps) {
  const { sequelize } = deps
  const queries = createEventQueries(sequelize)
  const refundQueries = createRefundQueries(sequelize)

  const kept = (gateway: string, e: PaystackEvent) => ({
    gateway,
    key: e.key,
    event: e.event,
    reference: e.reference,
    payload: { event: e.event, data: e.data }
  })
  const store = (gateway: string, e: PaystackEvent): Promise<{ id: number; first: boolean }> => queries.store(kept(gateway, e))

  const mark = queries.mark

  /** A reversal or dispute of a settled payment: marked, commission reversed, listed for the admin. */
  async function reverse(reference: string, kind: 'reversal' | 'dispute', why: string, ctx: Ctx = {}): Promise<boolean> {
    return sequelize.transaction(async (t) => {
      const p = await queries.reversePayment(reference, why.slice(0, 300), t)
      const details: Record<string, unknown> = { transactionId: reference, kind, why }
      if (p?.order_id) {
        if (await queries.reverseOrder(p.order_id, t)) {
          const commissionPesewas = await refundQueries.deleteCommission(p.order_id, t)
          details.commissionReversed = commissionPesewas != null ? toGhs(commissionPesewas) : 0
          await deps.events.publish('order.moneyReturned', { orderId: p.order_id, why: 'reversal' }, { ...ctx, transaction: t })
        }
        details.orderId = p.order_id
      }
      if (p?.purpose === 'voucher')
        await deps.events.publish('voucher.moneyReturned', { transactionId: p.transaction_id, why: 'reversal' }, { ...ctx, transaction: t })
      if (p)
        await deps.audit.record(
          { action: 'PAYMENT_REVERSED', resource: 'PAYMENT', resourceId: reference, severity: 'HIGH', details },
          { ...ctx, transaction: t }
        )
      await deps.attention.note(
        {
          kind,
          key: reference,
          transactionId: reference,
          summary: why,
          actionTaken: p ? 'Payment marked reversed; order and commission reversed' : 'No settled payment to reverse; check it at the gateway'
        },
        t
      )
      return !!p
    })
  }

  async function paystack(e: PaystackEvent, ctx: Ctx = {}): Promise<void> {
    const ref = e.reference
    if (e.event === 'charge.success') {
      // The event kept and the payment read once, in one statement: its gateway says it is ours, and the settlement
      // takes it as its `before` (its conditional UPDATE is the fence, however old the read).
      const { stored, read } = ref
        ? await queries.storeWithPayment({ ...kept('paystack', e), reference: ref })
        : { stored: await store('paystack', e), read: null }
      const before = read?.row
      if (!ref || before?.gateway !== 'paystack') return void (await mark(stored.id, false, 'A payment for a reference this shop never issued'))
      // Settled by this event: marked by the settling statement (run alone) or in the settlement's transaction, so one
      // commit (and one WAL flush) keeps the settlement, the event and its mark. Settled before (a resent event, a
      // status check): marked alone.
      const markInSettlement = (t: Transaction) => mark(stored.id, true, 'Settled', t)
      const out = await deps.settle(ref, resultOf(e.data, 'Payment successful'), ctx, {
        before,
        beforeOrder: read?.order,
        whenSettled: markInSettlement,
        eventSettled: stored.id
      })
      if (!out.settled) await mark(stored.id, true, 'Settled')
      return
    }
    const stored = await store('paystack', e)
    const known = ref ? await queries.gatewayOf(ref) : undefined
    if (e.event.startsWith('refund.')) {
      const handled = ref
        ? await deps.refunds.onGatewayEvent(
            ref,
            String(e.data?.status ?? e.event.slice(7)),
            e.data?.id != null ? String(e.data.id) : null,
            String(e.data?.merchant_note ?? e.data?.customer_note ?? e.event)
          )
        : false
      return void (await mark(stored.id, handled, handled ? 'Refund updated' : 'A refund this shop did not ask for'))
    }
    if (e.event.startsWith('charge.dispute.')) {
      if (e.event === 'charge.dispute.create' && ref) {
        await reverse(ref, 'dispute', `The payer disputed this payment (${String(e.data?.category ?? 'dispute')})`, ctx)
      }
      // Kept on the page with its payload: a dispute needs an admin's answer at the gateway.
      return void (await mark(
        stored.id,
        false,
        known ? 'Dispute: payment marked reversed; answer it on the Paystack dashboard' : 'Dispute for a reference this shop never issued'
      ))
    }
    const route = deps.routes?.find((h) => e.event.startsWith(h.prefix))
    if (route) {
      const r = await route.handle(e, ctx)
      return void (await mark(stored.id, r.handled, r.note))
    }
    await mark(stored.id, false, 'An event type this shop does not handle')
  }

  return { paystack, reverse }
}

export type Events = ReturnType<typeof createEvents>
