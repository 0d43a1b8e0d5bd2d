import Joi from 'joi'
import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { Queue } from '../queue/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { createDeliveryState, type DeliveryRow } from './state.ts'
import type { DeliveryEvents } from './types.ts'
import { NETWORKS } from '../../lib/vocabulary.ts'
import { idempotencyKeyFor, VendorError } from './vendor.ts'
import { SIMULATOR_MODES } from './vendors/simulator.ts'
import { createVendors } from './vendors/index.ts'

export { queueOnPaymentSets } from './state.ts'

export const DELIVERY_TASK = 'delivery.send'
export const DELIVERY_CHECK_TASK = 'delivery.check'
export const DELIVERY_SWEEP_TASK = 'delivery.sweep'
/**
 * Paid orders no subscriber of `delivery.changed` acts on are queued into one of this many batch jobs (ADR 0026): a job not yet
 * taken gathers every order added to it, so a worker that falls behind takes many at once. Only
 * pending jobs count: a taken one gives its key to the next, so any number run at once. More slots
 * mean fewer settlements waiting on one job row's lock, fewer mean fuller batches: 4 delivered
 * as fast as 16 with half the p95 in the bench (docs/benchmarks-fulfilment.md).
 */
export const DELIVERY_BATCH_SLOTS = 4
/** At most this many vendor calls of one batch at a time. */
const BATCH_CALLS_AT_ONCE = 8

/** One order of a batch job's payload (an array of these). */
export interface BatchItem {
  orderId: number
  sms?: number[]
}

export interface DeliveryDeps {
  sequelize: Sequelize
  audit: AuditService
  settings: SettingsService
  sms: SmsService
  queue: Queue
  env: Env
  log: Logger
  /** Where each status change is published (`delivery.changed`) and who listens is asked. */
  events: DeliveryEvents
}

const simulatorSchema = Joi.object({
  mode: Joi.string()
    .valid(...SIMULATOR_MODES)
    .required()
    .messages({ '*': `mode must be one of ${SIMULATOR_MODES.join(', ')}` }),
  count: Joi.number().integer().min(1).max(1000).default(1),
  lateMs: Joi.number().integer().min(0).max(600_000)
}).options({ stripUnknown: true })

export type DeliveryService = ReturnType<typeof createDeliveryService>

/**
 * Automatic fulfilment (ADR 0012): a paid order is queued for its vendor in the
 * settlement's transaction; a worker claims it, calls the vendor with a key derived from the order,
 * and records the outcome. Failures wait twice as long each time, up to the retry limit in settings,
 * then the order is FAILED with the reason. Every status change goes through state.setDeliveryStatus.
 */
export function createDeliveryService(deps: DeliveryDeps) {
  const { sequelize, queue, env, log } = deps
  const state = createDeliveryState(deps)
  const vendors = createVendors(env, sequelize)
  const { setDeliveryStatus } = state
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })
  const balanceCache = new Map<string, { at: number; value: number | null; error?: string }>()

  // `agent`: the order is an agent's, so its claim runs in a transaction for the agent's webhook
  // (a hint only: without it the claim tries the customer's one-statement path first).
  const enqueueSend = (orderId: number, opts: { transaction?: Transaction; runAt?: Date; sms?: number[]; agent?: boolean } = {}) =>
    queue.enqueue(
      DELIVERY_TASK,
      { orderId, ...(opts.sms?.length ? { sms: opts.sms } : {}), ...(opts.agent ? { agent: true } : {}) },
      { transaction: opts.transaction, runAt: opts.runAt, jobKey: `delivery:${orderId}` }
    )
  // graphile-worker appends an array payload to the pending job of the same key (batch jobs); a job
  // already taken loses its key, so the order starts the slot's next job. One race adds nothing: a
  // worker takes the job between add_job's clearing of taken jobs' keys and its upsert, which then
  // skips the taken row and returns no job. The order then gets a job of its own.
  async function enqueueInBatch(orderId: number, sms: number[], transaction: Transaction) {
    const id = await queue.enqueue(DELIVERY_TASK, [{ orderId, ...(sms.length ? { sms } : {}) }], {
      transaction,
      jobKey: `delivery-batch:${orderId % DELIVERY_BATCH_SLOTS}`,
      jobKeyMode: 'preserve_run_at'
    })
    if (!id) await enqueueSend(orderId, { transaction, sms })
  }

  const load = async (orderId: number) => (await q<DeliveryRow>('SELECT * FROM orders_view WHERE id = :id', { id: orderId }))[0] ?? null

  /** Next wait: base, 2x, 4x... (DELIVERY_RETRY_BASE_MS). */
  const backoffMs = (attempts: number) => env.DELIVERY_RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1)

  async function failOrRetry(order: DeliveryRow, err: unknown, settings: Settings, smsOut?: number[]) {
    const retryable = err instanceof VendorError ? err.retryable : true
    const error = (err as Error).message || 'Vendor call failed'
    if (!retryable || order.delivery_attempts >= settings.deliveryRetryLimit) {
      await setDeliveryStatus(order.id, 'FAILED', { error, via: 'worker', smsOut })
      log.warn({ orderId: order.id, attempts: order.delivery_attempts, error }, 'delivery failed for good')
      return
    }
    await sequelize.transaction(async (t) => {
      const row = await setDeliveryStatus(order.id, 'QUEUED', { error }, { transaction: t })
      if (row) await enqueueSend(order.id, { transaction: t, runAt: new Date(Date.now() + backoffMs(order.delivery_attempts)) })
    })
    log.info({ orderId: order.id, attempts: order.delivery_attempts, error }, 'delivery attempt failed; will retry')
  }

  /**
   * The queue's task: one vendor call for one order (idempotent: a repeated job changes nothing).
   * `sms`: the order's texts written by settlement without jobs of their own (the order-created
   * one); they go out after the vendor call with the delivered/failed text, two statements for all.
   */
  async function runSend(orderId: number, sms: number[] = [], agentOrder = false): Promise<void> {
    const smsOut = [...sms]
    try {
      await attempt(orderId, smsOut, agentOrder)
    } finally {
      // Whatever happened to the call: the texts are already in the outbox (the sweep is the fence).
      if (smsOut.length)
        await deps.sms.dispatchMany(smsOut).catch((err) => log.warn({ orderId, err: (err as Error).message }, 'order texts not sent now; the sweep sends them'))
    }
  }

  const vendorsByNetwork = (settings: Settings) => Object.fromEntries(NETWORKS.map((n) => [n, vendors.nameFor(n, settings)]))

  async function attempt(orderId: number, smsOut: number[], agentOrder: boolean): Promise<void> {
    const settings = await deps.settings.get()
    // The claim is the job's first statement (ADR 0024): it takes a QUEUED/PROCESSING order no vendor
    // has accepted yet and picks its vendor in the same UPDATE. Lost to a crash of PostgreSQL, the
    // job runs again and asks the vendor under the same key: its commit does not wait for the flush.
    const order = await setDeliveryStatus(orderId, 'PROCESSING', {
      vendorByNetwork: vendorsByNetwork(settings),
      unconfirmed: true,
      attempts: 'increment',
      noFlushWait: true,
      agentOrder
    })
    if (!order) {
      // Accepted earlier, confirmation pending: ask, never send again. Anything else: nothing to do.
      const before = await load(orderId)
      if (before?.delivery_reference && ['QUEUED', 'PROCESSING'].includes(before.delivery_status)) await check(orderId)
      return
    }
    const outcome = await callVendor(order, settings, smsOut)
    if (outcome) await setDeliveryStatus(orderId, 'DELIVERED', { reference: outcome.reference, error: null, via: outcome.via, smsOut })
  }

  /**
   * The vendor call of a claimed order. Returns the reference when the vendor delivered it (the
   * caller records DELIVERED); anything else (accepted for later, failed) is recorded here.
   */
  async function callVendor(order: DeliveryRow, settings: Settings, smsOut: number[]): Promise<{ reference: string | null; via: string } | null> {
    const vendorName = order.delivery_vendor ?? vendors.nameFor(order.network, settings)
    const vendor = vendors.get(vendorName)
    if (!vendor) {
      await failOrRetry(order, new VendorError(`Vendor '${vendorName}' is not configured on this server`, false), settings, smsOut)
      return null
    }
    try {
      const result = await vendor.send(
        { id: order.id, network: order.network, recipientNumber: order.recipient_number, dataSizeMb: order.data_size_mb },
        idempotencyKeyFor(order)
      )
      if (result.status === 'DELIVERED') return { reference: result.reference ?? null, via: vendorName }
      await sequelize.transaction(async (t) => {
        await setDeliveryStatus(order.id, 'PROCESSING', { reference: result.reference, error: null }, { transaction: t })
        await queue.enqueue(
          DELIVERY_CHECK_TASK,
          { orderId: order.id },
          { transaction: t, jobKey: `delivery-check:${order.id}`, runAt: new Date(Date.now() + env.DELIVERY_CHECK_AFTER_MS) }
        )
      })
    } catch (err) {
      await failOrRetry(order, err, settings, smsOut)
    }
    return null
  }

  /**
   * A batch job (ADR 0026): one claim for the orders it may send, their vendor calls (a few at a
   * time), then one statement for those delivered with their audit entries and texts, and the texts
   * of all sent together. Orders it could not claim, and outcomes other than delivered, take the
   * one-by-one path, so every order ends as it would in a job of its own.
   */
  async function runBatch(all: BatchItem[]): Promise<void> {
    // A batch that gathered while the workers were behind (a slow vendor, a burst) is shared out:
    // idle workers take the other parts at once, and no order waits behind a long line of vendor
    // calls until the sweep counts it stale. Queued before this part runs, so a crash loses none.
    const max = env.DELIVERY_BATCH_MAX
    if (all.length > max) {
      await sequelize.transaction(async (t) => {
        for (let i = max; i < all.length; i += max) await queue.enqueue(DELIVERY_TASK, all.slice(i, i + max), { transaction: t })
      })
    }
    const items = all.slice(0, max)
    const ids = [...new Set(items.map((i) => i.orderId))]
    const smsOut = items.flatMap((i) => i.sms ?? [])
    try {
      const settings = await deps.settings.get()
      const claimed = await state.claimMany(ids, { vendorByNetwork: vendorsByNetwork(settings) })
      const taken = new Set(claimed.map((o) => o.id))
      for (const id of ids)
        if (!taken.has(id))
          await attempt(id, smsOut, false).catch((err) =>
            log.warn({ orderId: id, err: (err as Error).message }, 'delivery attempt failed; the sweep takes it again')
          )
      const delivered: { order: DeliveryRow; reference: string | null; via: string }[] = []
      let next = 0
      const caller = async () => {
        while (next < claimed.length) {
          const order = claimed[next++]!
          const outcome = await callVendor(order, settings, smsOut)
          if (outcome) delivered.push({ order, ...outcome })
        }
      }
      await Promise.all(Array.from({ length: Math.min(BATCH_CALLS_AT_ONCE, claimed.length) }, caller))
      const recorded = await state.deliveredMany(delivered, settings)
      smsOut.push(...recorded.sms)
      const done = new Set(recorded.orders)
      // Not changed by the batch statement (marked by an admin meanwhile...): as a job of its own would.
      for (const d of delivered)
        if (!done.has(d.order.id)) await setDeliveryStatus(d.order.id, 'DELIVERED', { reference: d.reference, error: null, via: d.via, smsOut })
    } finally {
      if (smsOut.length)
        await deps.sms
          .dispatchMany(smsOut)
          .catch((err) => log.warn({ orders: ids.length, err: (err as Error).message }, 'order texts not sent now; the sweep sends them'))
    }
  }

  /** Asks the vendor about an accepted order (callback, delayed check, sync job). */
  async function check(orderId: number, via = 'status-sync'): Promise<DeliveryRow | null> {
    const order = await load(orderId)
    if (!order || order.delivery_status !== 'PROCESSING' || !order.delivery_reference || !order.delivery_vendor) return order
    const vendor = vendors.get(order.delivery_vendor)
    if (!vendor) return order
    const st = await vendor.status(order.delivery_reference)
    if (st.status === 'DELIVERED') return setDeliveryStatus(orderId, 'DELIVERED', { error: null, via })
    if (st.status === 'FAILED') return setDeliveryStatus(orderId, 'FAILED', { error: st.message ?? 'Vendor reports the delivery failed', via })
    await queue.enqueue(
      DELIVERY_CHECK_TASK,
      { orderId },
      { jobKey: `delivery-check:${orderId}`, runAt: new Date(Date.now() + Math.max(env.DELIVERY_CHECK_AFTER_MS * 2, 1000)) }
    )
    return order
  }

  return {
    state,
    vendors,
    setDeliveryStatus,
    runSend,
    runBatch,
    check,

    /**
     * Settlement calls this in its transaction for a paid data order whose UPDATE queued it
     * (`queueOnPaymentSets`): the job and its `delivery.changed`. `sms`: outbox rows written with `defer`, sent
     * by the delivery job. False when the order was not queued (manual mode): the caller sends them.
     */
    async onPaid(order: DeliveryRow, t: Transaction, sms: number[] = []): Promise<boolean> {
      if (order.delivery_status !== 'QUEUED') return false
      if (state.batchable(order)) await enqueueInBatch(order.id, sms, t)
      else await enqueueSend(order.id, { transaction: t, sms, agent: !!order.agent_id })
      await state.queuedByPayment(order, t)
      return true
    },

    /**
     * `onPaid` for many orders paid in one statement (a bulk order's lines): their jobs in one
     * statement. It publishes no `delivery.changed`: the caller publishes `orders.paidTogether`,
     * which stands for each order's NOT_STARTED -> QUEUED. Returns the ids of the orders queued.
     */
    async onPaidMany(orders: DeliveryRow[], t: Transaction): Promise<number[]> {
      const queued = orders.filter((o) => o.delivery_status === 'QUEUED')
      const alone = queued.filter((o) => !state.batchable(o))
      for (const o of queued) if (state.batchable(o)) await enqueueInBatch(o.id, [], t)
      await queue.enqueueMany(
        alone.map((o) => ({ task: DELIVERY_TASK, payload: { orderId: o.id, ...(o.agent_id ? { agent: true } : {}) }, jobKey: `delivery:${o.id}` })),
        t
      )
      return queued.map((o) => o.id)
    },

    /** 'Retry delivery' (admin): a FAILED order, or a paid one never sent (manual mode), goes to its vendor again. */
    async retry(orderId: number, ctx: Ctx = {}): Promise<DeliveryRow> {
      const order = await load(orderId)
      if (!order) throw notFound('Order not found')
      if (order.payment_status !== 'SUCCESS') throw conflict('Only paid orders can be delivered')
      if (!['FAILED', 'NOT_STARTED'].includes(order.delivery_status)) throw conflict('This order is already delivered or on its way')
      return sequelize.transaction(async (t) => {
        // The vendor is chosen again: the settings may have changed since it failed.
        const row = await setDeliveryStatus(orderId, 'QUEUED', { attempts: 'reset', error: null, vendor: null, via: 'admin' }, { ...ctx, transaction: t })
        if (!row) throw conflict('This order is already delivered or on its way')
        await enqueueSend(orderId, { transaction: t })
        await deps.audit.record(
          {
            action: 'DELIVERY_RETRIED',
            resource: 'ORDER',
            resourceId: orderId,
            severity: 'MEDIUM',
            details: { previous: order.delivery_status, error: order.delivery_error }
          },
          { ...ctx, transaction: t }
        )
        return row
      })
    },

    /** 'Mark delivered' (admin): MANUAL, audited as ORDER_DELIVERED. */
    async markManual(orderId: number, ctx: Ctx = {}): Promise<DeliveryRow | null> {
      return setDeliveryStatus(orderId, 'MANUAL', { via: 'admin' }, ctx)
    },

    /**
     * The scheduled sweep: confirms orders accepted but not yet confirmed, and puts back on the queue
     * orders whose worker died mid-call (QUEUED/PROCESSING untouched for DELIVERY_STALE_SECONDS).
     */
    async sync(): Promise<{ requeued: number; checked: number }> {
      const stale = await q<{ id: number; delivery_reference: string | null }>(
        `SELECT id, delivery_reference FROM orders WHERE delivery_status IN ('QUEUED','PROCESSING')
           AND updated_at < now() - make_interval(secs => :s) ORDER BY updated_at LIMIT 500`,
        { s: env.DELIVERY_STALE_SECONDS }
      )
      let requeued = 0
      let checked = 0
      for (const o of stale) {
        if (o.delivery_reference) {
          checked++
          await check(o.id).catch((err) => log.warn({ orderId: o.id, err: (err as Error).message }, 'delivery status sync failed'))
        } else {
          requeued++
          await queue.enqueue(DELIVERY_TASK, { orderId: o.id }, { jobKey: `delivery:${o.id}`, jobKeyMode: 'preserve_run_at' })
        }
      }
      if (stale.length) log.info({ requeued, checked }, 'delivery sync')
      return { requeued, checked }
    },

    /** A vendor's callback: never trusted by itself; the order's status is asked from the vendor. */
    async callback(vendorName: string, reference: unknown): Promise<{ orderId: number; deliveryStatus: string } | null> {
      if (typeof reference !== 'string' || !reference || reference.length > 120) throw badRequest('ref is required')
      const [order] = await q<{ id: number }>('SELECT id FROM orders WHERE delivery_vendor = :v AND delivery_reference = :ref', {
        v: vendorName,
        ref: reference
      })
      if (!order) return null
      const row = await check(order.id, `${vendorName}-callback`)
      return { orderId: order.id, deliveryStatus: row?.delivery_status ?? 'UNKNOWN' }
    },

    /** Overview: failed deliveries ('Needs attention') and each vendor's balance against the threshold. */
    async overview() {
      const s = await deps.settings.get()
      const [[failed], inflight] = await Promise.all([
        // An exported FAILED order was delivered by hand (MANUAL): not 'needs attention'.
        q<{ n: string }>(
          `SELECT count(*) AS n FROM orders o WHERE delivery_status = 'FAILED' AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)`,
          {}
        ),
        q<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE delivery_status IN ('QUEUED','PROCESSING')`, {})
      ])
      const names = [...new Set(NETWORKS.map((n) => vendors.nameFor(n, s)))]
      const balances = await Promise.all(
        names.map(async (name) => {
          const hit = balanceCache.get(name)
          let entry = hit && Date.now() - hit.at < 60_000 ? hit : undefined
          if (!entry) {
            const vendor = vendors.get(name)
            try {
              entry = { at: Date.now(), value: vendor ? await vendor.balance() : null, error: vendor ? undefined : 'Not configured' }
            } catch (err) {
              entry = { at: Date.now(), value: null, error: (err as Error).message }
            }
            balanceCache.set(name, entry)
          }
          const low = entry.value !== null && entry.value < s.deliveryLowBalanceThreshold
          return { vendor: name, balance: entry.value, low, error: entry.error ?? null }
        })
      )
      return {
        mode: s.deliveryMode,
        needsAttention: Number(failed?.n ?? 0),
        inFlight: Number(inflight[0]?.n ?? 0),
        lowBalanceThreshold: s.deliveryLowBalanceThreshold,
        balances
      }
    },

    simulatorState: () => vendors.simulator.state(),

    /** The simulator vendor's control: development, or an admin anywhere. */
    simulatorControl(input: unknown, ctx: Ctx = {}) {
      if (env.NODE_ENV === 'production' && ctx.user?.role !== 'ADMIN') throw forbidden('The delivery simulator control is for admins')
      const { value, error } = simulatorSchema.validate(input ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      return vendors.simulator.control(value)
    }
  }
}
