import type { Sequelize, Transaction } from 'sequelize'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { SettingsService } from '../settings/index.ts'
import { type DeliveryQueries, kindCondition, statusChange } from './queries.ts'
import { normalizePhone } from '../../lib/phone.ts'
import { type ClaimedText, fillTemplate, formatDataSize, type SmsService } from '../sms/index.ts'
import type { Settings } from '../settings/index.ts'
import type { DeliveryChange, DeliveryEvents, DeliveryRow, DeliveryScope, DeliveryStatus, StatusDetails } from './types.ts'

export { DELIVERY_STATUSES, type DeliveryRow, type DeliveryScope, type DeliveryStatus, type StatusDetails } from './types.ts'

/** Where each status may be reached from; anything else is a no-op (a late or repeated job changes nothing). */
export const ALLOWED_FROM: Record<DeliveryStatus, DeliveryStatus[]> = {
  NOT_STARTED: [],
  // settlement (NOT_STARTED), 'Retry delivery' (FAILED, or NOT_STARTED in manual mode), a retry waiting its turn (PROCESSING)
  QUEUED: ['NOT_STARTED', 'FAILED', 'PROCESSING'],
  // a worker claims it; PROCESSING again when a dead worker's job is picked up
  PROCESSING: ['QUEUED', 'PROCESSING'],
  DELIVERED: ['QUEUED', 'PROCESSING'],
  FAILED: ['QUEUED', 'PROCESSING'],
  // exported or ticked by hand: the admin's word wins over anything still on its way
  MANUAL: ['NOT_STARTED', 'QUEUED', 'PROCESSING', 'FAILED']
}

/** What sets an order apart for the subscribers: placed by an agent, sold through a shop, its channel. */
interface Kind {
  agent: boolean
  shop: boolean
  channel: string
}
const kindOf = (o: { agent_id?: number | null; shop_id?: number | null; channel?: string | null }): Kind => ({
  agent: !!o.agent_id,
  shop: !!o.shop_id,
  channel: o.channel ?? 'web'
})
const PLAIN: Kind = { agent: false, shop: false, channel: 'web' }

/** The buyer's text for a change to DELIVERED or FAILED of an order placed by no agent; null when none is sent. */
export function deliveryText(order: DeliveryRow, to: DeliveryStatus, s: Settings): { phone: string; message: string } | null {
  const template = to === 'DELIVERED' ? s.smsDelivered : to === 'FAILED' ? s.smsDeliveryFailed : ''
  if (!template) return null
  const message = fillTemplate(template, { dataSize: formatDataSize(order.data_size_mb), network: order.network, recipientNumber: order.recipient_number })
  const phone = normalizePhone(order.payment_phone_number || order.recipient_number)
  return phone && message.trim() ? { phone, message: message.slice(0, 640) } : null
}

/**
 * THE one way a delivery status changes (ADR 0012). A conditional UPDATE moves the order only from
 * an allowed status (ALLOWED_FROM) and only when paid, so two workers, a callback and an admin racing
 * each other give one change; `delivered` follows (true exactly for DELIVERED and MANUAL). In the
 * same transaction it writes the audit entry (ORDER_DELIVERED, DELIVERY_FAILED), the buyer's SMS,
 * and publishes `delivery.changed` (refunds on FAILED, agent webhooks, shop margins subscribe to it).
 * Returns the changed row, or null when nothing changed.
 */
export function createDeliveryState(deps: {
  sequelize: Sequelize
  queries: DeliveryQueries
  audit: AuditService
  settings: SettingsService
  sms: SmsService
  events: DeliveryEvents
}) {
  const { sequelize, events } = deps
  const inScope = (scope: Partial<DeliveryScope>, to: DeliveryStatus, kind: Kind) =>
    (!scope.to || scope.to.includes(to)) &&
    (kind.agent || !scope.agentOrdersOnly) &&
    (kind.shop || !scope.shopOrdersOnly) &&
    (!scope.channels || scope.channels.includes(kind.channel))
  /** Whether a subscriber of `delivery.changed` acts on a change to `to` of an order of this kind. */
  const heard = (to: DeliveryStatus, kind: Kind) => events.scopes('delivery.changed').some((s) => inScope(s, to, kind))
  const changed = (change: DeliveryChange, ctx: Ctx & { transaction: Transaction }) =>
    events.publish('delivery.changed', change, ctx, (s) => inScope(s, change.to, kindOf(change.order)))

  async function notify(order: DeliveryRow, to: DeliveryStatus, t: Transaction, smsOut?: number[]) {
    const text = deliveryText(order, to, await deps.settings.get({ transaction: t }))
    if (!text) return
    let phone = text.phone
    if (order.batch_id) {
      // A bulk order's line: its recipient hears of it when the agent ticked texts, nobody otherwise (ADR 0039).
      if (!(await deps.queries.batchTexts(order.batch_id, t))) return
      phone = order.recipient_number
    } else if (order.agent_id) {
      phone = (await deps.queries.agentPhone(order.agent_id, t)) ?? phone
    }
    const id = await deps.sms.send(phone, text.message, { transaction: t, defer: !!smsOut })
    if (id && smsOut) smsOut.push(id)
  }

  /**
   * The SQL condition (on `o`) that keeps to orders no subscriber acts on in a change to `to`: '' when no
   * subscriber acts on any order, null when one acts on every order (nothing can skip them then).
   */
  function unheard(to: DeliveryStatus): string | null {
    if (heard(to, PLAIN)) return null
    // Channel names come from the subscribers' code (never from a request): letters only.
    const channels = new Set(
      events
        .scopes('delivery.changed')
        .flatMap((sc) => sc.channels ?? [])
        .filter((c) => /^[a-z]+$/.test(c))
    )
    return kindCondition({
      noAgent: heard(to, { agent: true, shop: false, channel: 'web' }),
      noShop: heard(to, { agent: false, shop: true, channel: 'web' }),
      notChannels: [...channels].filter((c) => heard(to, { agent: false, shop: false, channel: c }))
    })
  }

  /**
   * A change that writes no audit entry or text, needs no export lock, and that no subscriber acts on for
   * the order (a worker's claim of a customer's order, PROCESSING) is one autocommitted
   * statement instead of BEGIN, UPDATE, COMMIT. Undefined when this change cannot go that way, or
   * when a subscriber may act on the order (an agent's): the caller then runs it in a transaction.
   */
  async function alone(orderId: number, next: DeliveryStatus, details: StatusDetails): Promise<DeliveryRow | null | undefined> {
    if (next !== 'PROCESSING' && next !== 'QUEUED') return undefined
    const change = statusChange(orderId, next, ALLOWED_FROM[next], details)
    if (change.from.some((f) => f === 'NOT_STARTED' || f === 'FAILED')) return undefined
    const only = unheard(next)
    if (only === null || (only && details.agentOrder)) return undefined
    const row = await deps.queries.changeStatus(change, details, null, only)
    return row ?? (only ? undefined : null)
  }

  /**
   * A delivery job's batch (ADR 0026): claims, in one autocommitted statement, those of `ids` that a
   * worker may send now (as `alone` would each) and no subscriber acts on. The rest are the caller's to
   * take one by one. Locks in id order, so two batches never wait on each other in a cycle.
   */
  async function claimMany(ids: number[], details: StatusDetails): Promise<DeliveryRow[]> {
    const only = unheard('PROCESSING')
    if (only === null || !ids.length) return []
    // The same SET items as a single claim; $1 is the array of ids here instead of one id.
    const change = statusChange(0, 'PROCESSING', ALLOWED_FROM.PROCESSING, { ...details, attempts: 'increment' })
    change.values[0] = ids
    return deps.queries.claimMany(change, only)
  }

  /**
   * The pump's claim (ADR 0056, 0063): up to `limit` paid orders QUEUED with no attempt yet that no
   * subscriber acts on at their claim (a customer's, a shop's: their DELIVERED, when heard, takes the
   * caller's one-by-one path), or, with `abandoned`, those a pump of a process now gone had claimed, or
   * this pool's claims not in flight in this process, whatever their kind: taking a claim back is no
   * change a subscriber hears of (it heard the first claim). The same SET items as a worker's claim, in
   * one autocommitted statement; `details.claim` names this instance's worker pool.
   */
  async function claimWaiting(
    limit: number,
    details: StatusDetails,
    abandoned?: { livenessPrefix: string; graceSeconds: number; owner: string; inFlight: number[] }
  ): Promise<DeliveryRow[]> {
    const only = abandoned ? '' : unheard('PROCESSING')
    if (only === null) return []
    const change = statusChange(0, 'PROCESSING', abandoned ? ['PROCESSING'] : ['QUEUED'], { ...details, attempts: 'increment' })
    change.values[0] = limit
    return abandoned ? deps.queries.claimAbandoned(change, only, abandoned) : deps.queries.claimWaiting(change, only)
  }

  /**
   * The pump's claim of the waiting orders a subscriber acts on at their claim (an agent's: its webhook's
   * PROCESSING event), up to `limit`: the claim and each order's `delivery.changed` (QUEUED -> PROCESSING)
   * in one transaction, so what a subscriber writes at the claim is written once with it, or not at all
   * and the order stays QUEUED for the next claim. [] when no subscriber acts on any claim.
   */
  async function claimWaitingHeard(limit: number, details: StatusDetails): Promise<DeliveryRow[]> {
    const only = unheard('PROCESSING')
    if (only === '') return []
    const claim: StatusDetails = { ...details, attempts: 'increment' }
    const change = statusChange(0, 'PROCESSING', ['QUEUED'], claim)
    change.values[0] = limit
    const heardOnly = only === null ? '' : `AND NOT (true ${only})`
    return sequelize.transaction(async (transaction) => {
      const rows = await deps.queries.claimWaiting(change, heardOnly, transaction)
      for (const order of rows) await changed({ order, from: 'QUEUED', to: 'PROCESSING', details: claim }, { transaction })
      return rows
    })
  }

  /**
   * The vendor delivered these claimed orders: DELIVERED, each one's ORDER_DELIVERED entry and its
   * buyer's text, all in one statement (so all or none), for orders no subscriber acts on at DELIVERED.
   * Returns the ids of the orders changed and of the texts written (not yet sent: the caller sends
   * them). With `claimTexts` (outbox ids the caller is to send), the statement claims those still QUEUED
   * and the texts it writes for the SMS provider, and returns them claimed: the caller sends them with
   * `sms.sendClaimed`, no claim of their own. An order it did not change (an admin marked it meanwhile, or a subscriber acts on it) is left for
   * the caller's one-by-one path. The entry and the text are the rows audit.record and sms.send write
   * (same columns, the text from `deliveryText`), written by one statement (queries.ts `markDelivered`).
   */
  async function deliveredMany(
    done: { order: DeliveryRow; reference: string | null; via: string }[],
    settings: Settings,
    claimTexts?: number[]
  ): Promise<{ orders: number[]; sms: number[]; claimed: ClaimedText[] }> {
    const only = unheard('DELIVERED')
    if (only === null || !done.length) return { orders: [], sms: [], claimed: [] }
    const texts = done.map((d) => deliveryText(d.order, 'DELIVERED', settings))
    return deps.queries.markDelivered(
      done.map((d, i) => ({ id: d.order.id, reference: d.reference, via: d.via, phone: texts[i]?.phone ?? null, message: texts[i]?.message ?? null })),
      ALLOWED_FROM.DELIVERED,
      only,
      claimTexts ? { ids: claimTexts, provider: deps.sms.provider.name } : undefined
    )
  }

  async function apply(orderId: number, next: DeliveryStatus, details: StatusDetails, ctx: Ctx & { transaction: Transaction }): Promise<DeliveryRow | null> {
    const t = ctx.transaction
    const change = statusChange(orderId, next, ALLOWED_FROM[next], details)
    const { from } = change
    // Leaving NOT_STARTED/FAILED (the exportable states) waits for an export in progress, which
    // holds this lock exclusively; the UPDATE's snapshot is taken after it, so it sees that export.
    if (from.some((f) => f === 'NOT_STARTED' || f === 'FAILED')) await deps.queries.waitForExport(t)
    const row = await deps.queries.changeStatus(change, details, t)
    if (!row) return null
    const was = row.old_status
    if (next === 'DELIVERED' || next === 'MANUAL' || next === 'FAILED') {
      await deps.audit.record(
        {
          action: next === 'FAILED' ? 'DELIVERY_FAILED' : 'ORDER_DELIVERED',
          resource: 'ORDER',
          resourceId: orderId,
          severity: next === 'FAILED' ? 'HIGH' : 'LOW',
          details: {
            deliveryStatus: next,
            previous: was,
            vendor: row.delivery_vendor,
            reference: row.delivery_reference,
            attempts: row.delivery_attempts,
            error: next === 'FAILED' ? row.delivery_error : undefined,
            via: details.via
          }
        },
        ctx
      )
    }
    if ((next === 'DELIVERED' || next === 'FAILED') && was !== next) await notify(row, next, t, details.smsOut)
    await changed({ order: row, from: was, to: next, details }, ctx)
    return row
  }

  return {
    claimMany,
    claimWaiting,
    claimWaitingHeard,
    deliveredMany,
    /** Whether a subscriber acts on this paid order's claim: the pump then claims it in a transaction (`claimWaitingHeard`). */
    heardAtClaim: (order: DeliveryRow): boolean => heard('PROCESSING', kindOf(order)),
    /** Changes an order's delivery status (in ctx.transaction when given, else in its own). */
    async setDeliveryStatus(orderId: number, next: DeliveryStatus, details: StatusDetails = {}, ctx: Ctx = {}): Promise<DeliveryRow | null> {
      if (ctx.transaction) return apply(orderId, next, details, ctx as Ctx & { transaction: Transaction })
      const done = await alone(orderId, next, details)
      if (done !== undefined) return done
      return sequelize.transaction((transaction) => apply(orderId, next, details, { ...ctx, transaction }))
    },
    /** The `delivery.changed` of a NOT_STARTED -> QUEUED change made by the payment's UPDATE (`queueOnPaymentSets`). */
    queuedByPayment: (order: DeliveryRow, t: Transaction): Promise<void> =>
      changed({ order, from: 'NOT_STARTED', to: 'QUEUED', details: { attempts: 'reset', error: null } }, { transaction: t })
  }
}

export type DeliveryState = ReturnType<typeof createDeliveryState>
