import type { Sequelize } from 'sequelize'
import type { Env } from '../../env.ts'
import { badRequest } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { NETWORKS } from '../../lib/vocabulary.ts'
import { LIVENESS_PREFIX, type Queue } from '../queue/index.ts'
import type { Settings, SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import type { DeliveryQueries } from './queries.ts'
import type { DeliveryQueueing } from './queueing.ts'
import type { DeliveryState } from './state.ts'
import { type BatchItem, DELIVERY_CHECK_TASK, DELIVERY_TASK } from './tasks.ts'
import type { DeliveryRow } from './types.ts'
import { idempotencyKeyFor, VendorError } from './vendor.ts'
import type { Vendors } from './vendors/index.ts'

/** At most this many vendor calls of one batch at a time. */
const BATCH_CALLS_AT_ONCE = 8
/** How often a pump that finds no order waiting looks for claims of a process that is gone. */
const ABANDONED_CHECK_MS = 2000
/** A claim this recent may be a new worker pool's whose liveness connection is still opening (as for jobs). */
const ABANDONED_GRACE_SECONDS = 10

/**
 * What the queue's workers run (ADR 0012): a claimed order's vendor call under a key derived from the
 * order, its outcome recorded; failures wait twice as long each time, up to the retry limit in
 * settings, then the order is FAILED with the reason. Also the status checks and the sweep.
 */
export function createDeliveryWorker(deps: {
  sequelize: Sequelize
  queue: Queue
  env: Env
  log: Logger
  settings: SettingsService
  sms: SmsService
  queries: DeliveryQueries
  state: DeliveryState
  vendors: Vendors
  enqueueSend: DeliveryQueueing['enqueueSend']
  /** The order texts settlement handed over with paid orders since the last call (ADR 0056). */
  takeTexts: DeliveryQueueing['takeTexts']
  /** Whether settlement queued an order a subscriber acts on at its claim since the last call (ADR 0063). */
  takeHeard: DeliveryQueueing['takeHeard']
}) {
  const { sequelize, queue, env, log, queries, state, vendors, enqueueSend } = deps
  const { setDeliveryStatus } = state

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
      if (row) await enqueueSend(order.id, { transaction: t, runAt: new Date(Date.now() + backoffMs(order.delivery_attempts)), agent: !!order.agent_id })
    })
    log.info({ orderId: order.id, attempts: order.delivery_attempts, error }, 'delivery attempt failed; will retry')
  }

  /** The order texts the job carries go out whatever happened to the call: they are already in the outbox (the sweep is the fence). */
  async function sendTexts(smsOut: number[], about: Record<string, unknown>) {
    if (smsOut.length)
      await deps.sms.dispatchMany(smsOut).catch((err) => log.warn({ ...about, err: (err as Error).message }, 'order texts not sent now; the sweep sends them'))
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
      await sendTexts(smsOut, { orderId })
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
      const before = await queries.load(orderId)
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
   * Claimed orders' vendor calls (a few at a time), then one statement for those delivered with their
   * audit entries and texts, which also claims those texts and the ones in `smsOut` for sending; they go
   * out here, and `smsOut` keeps only the texts it did not claim. Outcomes other than delivered are
   * recorded one by one (callVendor), and an order the batch statement did not change takes the
   * one-by-one path, as in a job of its own.
   */
  async function deliverClaimed(claimed: DeliveryRow[], settings: Settings, smsOut: number[], atOnce = BATCH_CALLS_AT_ONCE): Promise<void> {
    const delivered: { order: DeliveryRow; reference: string | null; via: string }[] = []
    let next = 0
    const caller = async () => {
      while (next < claimed.length) {
        const order = claimed[next++]!
        const outcome = await callVendor(order, settings, smsOut)
        if (outcome) delivered.push({ order, ...outcome })
      }
    }
    await Promise.all(Array.from({ length: Math.min(atOnce, claimed.length) }, caller))
    // The statement claims the texts it writes and those the caller holds so far (still QUEUED), so they
    // go out with no claim of their own; the others (a sweep's dispatcher took them) stay with the caller.
    const recorded = await state.deliveredMany(delivered, settings, [...smsOut])
    const taken = new Set(recorded.claimed.map((x) => x.id))
    const rest = [...smsOut, ...recorded.sms].filter((id) => !taken.has(id))
    smsOut.splice(0, smsOut.length, ...rest)
    try {
      const done = new Set(recorded.orders)
      // Not changed by the batch statement (marked by an admin meanwhile...): as a job of its own would.
      for (const d of delivered)
        if (!done.has(d.order.id)) await setDeliveryStatus(d.order.id, 'DELIVERED', { reference: d.reference, error: null, via: d.via, smsOut })
    } finally {
      if (recorded.claimed.length)
        await deps.sms
          .sendClaimed(recorded.claimed)
          .catch((err) => log.warn({ orders: delivered.length, err: (err as Error).message }, 'order texts not sent now; the sweep sends them'))
    }
  }

  /**
   * A batch job (ADR 0026; since ADR 0056 only those queued before it, and their parts): one claim for
   * the orders it may send, then `deliverClaimed`, and the texts of all sent together. Orders it could
   * not claim take the one-by-one path, so every order ends as it would in a job of its own.
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
      await deliverClaimed(claimed, settings, smsOut)
    } finally {
      await sendTexts(smsOut, { orders: ids.length })
    }
  }

  // When this process's next claim may start (the gather). A claim soon after another waits for the
  // rest of DELIVERY_GATHER_MS, so the orders paid meanwhile go in one claim: its claim, vendor-key write,
  // DELIVERED statement and texts' mark serve them all, where each wake made its own claim of a few. Only after a claim of this process: a lone order is claimed at once, and a full claim
  // (more may be waiting) lets the next start at once. Each caller takes its own slot, so lanes woken
  // together claim one after another instead of all at once.
  let nextClaimAt = 0
  async function gather(): Promise<void> {
    const now = Date.now()
    const at = Math.max(now, nextClaimAt)
    nextClaimAt = at + env.DELIVERY_GATHER_MS
    if (at > now) await new Promise((r) => setTimeout(r, at - now))
  }

  let abandonedCheckedAt = 0
  let heardCheckedAt = 0
  // The orders this process's pumps are delivering now. A claim of this pool that is not among them was
  // cut off (the database went away before the claim's answer or the outcome's write came back): as
  // abandoned as a dead process's, though this pool's liveness connection lives on.
  const inFlight = new Set<number>()

  /**
   * The delivery pump (ADR 0056), run by the queue's poller: claims up to DELIVERY_BATCH_MAX paid
   * orders that settlement queued without a job (those a subscriber acts on at their claim, agents', in
   * a transaction of their own: ADR 0063), delivers them as a batch job would, and sends the
   * order texts settlement handed over (`takeTexts`) with theirs. Every few seconds, when its claim has
   * room, it also takes back orders whose claiming process is gone, or whose claim by this
   * process was cut off by the database going away. A claim soon after this process's last one waits
   * for the gather (`gather`). `owner`: this instance's worker pool (null when run by `drain`).
   * Returns how many orders it claimed.
   */
  async function pump(owner: string | null): Promise<number> {
    // `drain` (no owner) never waits: it runs until nothing is left.
    if (owner && env.DELIVERY_GATHER_MS) await gather()
    const smsOut = deps.takeTexts()
    let claimed: DeliveryRow[] = []
    try {
      const settings = await deps.settings.get()
      const details = { vendorByNetwork: vendorsByNetwork(settings), ...(owner ? { claim: owner } : {}) }
      const max = env.DELIVERY_BATCH_MAX
      claimed = await state.claimWaiting(max, details)
      if (claimed.length === max) nextClaimAt = Date.now()
      // Orders a subscriber acts on at their claim (agents'), claimed in a transaction with what it writes:
      // when this process queued one, when drained, and every few seconds (another instance's, or waiting since a start).
      const heardDue = deps.takeHeard()
      if (claimed.length < max && (heardDue || !owner || Date.now() - heardCheckedAt > ABANDONED_CHECK_MS)) {
        heardCheckedAt = Date.now()
        // Failed (the database went away), it leaves the orders QUEUED: the next claim takes them, and this one's are delivered now.
        const heard = await state
          .claimWaitingHeard(max - claimed.length, details)
          .catch((err: unknown) => (log.warn({ err: (err as Error).message }, 'delivery claim failed; the next pump takes those orders'), [] as DeliveryRow[]))
        if (heard.length === max - claimed.length) deps.takeHeard(true)
        claimed = [...claimed, ...heard]
      } else if (heardDue) deps.takeHeard(true)
      // With room in this claim (a claim with room ends its lane: the lane makes no empty claim after it).
      if (claimed.length < max && owner && Date.now() - abandonedCheckedAt > ABANDONED_CHECK_MS) {
        abandonedCheckedAt = Date.now()
        // Failed (the database went away), it leaves those orders as they were for the next check, and this claim's are delivered now.
        const taken = await state
          .claimWaiting(max - claimed.length, details, {
            livenessPrefix: LIVENESS_PREFIX,
            graceSeconds: ABANDONED_GRACE_SECONDS,
            owner,
            inFlight: [...inFlight, ...claimed.map((o) => o.id)]
          })
          .catch(
            (err: unknown) => (log.warn({ err: (err as Error).message }, 'taking back abandoned claims failed; the next check takes them'), [] as DeliveryRow[])
          )
        claimed = [...claimed, ...taken]
      }
      for (const o of claimed) inFlight.add(o.id)
      // All of a claim's calls at once: its DELIVERED waits for the slowest call, and a pump's claim is
      // at most DELIVERY_BATCH_MAX (a few pumps run at a time, as the workers did with their batches).
      await deliverClaimed(claimed, settings, smsOut, claimed.length)
    } finally {
      for (const o of claimed) inFlight.delete(o.id)
      await sendTexts(smsOut, { orders: claimed.length })
    }
    return claimed.length
  }

  /** Asks the vendor about an accepted order (callback, delayed check, sync job). */
  async function check(orderId: number, via = 'status-sync'): Promise<DeliveryRow | null> {
    const order = await queries.load(orderId)
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
    runSend,
    runBatch,
    pump,
    check,

    /**
     * The scheduled sweep: confirms orders accepted but not yet confirmed, and puts back on the queue
     * orders whose worker died mid-call (QUEUED/PROCESSING untouched for DELIVERY_STALE_SECONDS).
     */
    async sync(): Promise<{ requeued: number; checked: number }> {
      const stale = await queries.stale(env.DELIVERY_STALE_SECONDS)
      let requeued = 0
      let checked = 0
      for (const o of stale) {
        if (o.deliveryReference) {
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

    /**
     * A vendor's callback: never trusted by itself; the order's status is asked from the vendor. Its
     * reference is checked here: the callback's route (webhooks) reads it from either field name.
     */
    async callback(vendorName: string, reference: unknown): Promise<{ orderId: number; deliveryStatus: string } | null> {
      if (typeof reference !== 'string' || !reference || reference.length > 120) throw badRequest('ref is required')
      const orderId = await queries.orderIdByReference(vendorName, reference)
      if (orderId === null) return null
      const row = await check(orderId, `${vendorName}-callback`)
      return { orderId, deliveryStatus: row?.delivery_status ?? 'UNKNOWN' }
    }
  }
}
