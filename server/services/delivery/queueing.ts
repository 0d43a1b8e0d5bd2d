import type { Transaction } from 'sequelize'
import type { Queue } from '../queue/index.ts'
import type { DeliveryState } from './state.ts'
import { DELIVERY_PUMP, DELIVERY_TASK } from './tasks.ts'
import type { DeliveryRow } from './types.ts'

/** Texts handed to the pump at most; beyond it (an instance with no workers) the minute sweep sends them. */
const TEXTS_HELD_MAX = 10_000

/**
 * Paid orders onto the delivery queue, in the settlement's transaction. A paid order is its own queue
 * row (ADR 0056): the settlement's UPDATE made it QUEUED, and after the commit this instance's delivery
 * pump is woken. An order a subscriber acts on at its claim (an agent's) is claimed by the pump in a
 * transaction with what the subscriber writes (ADR 0063); the wake-up says one is waiting.
 * Jobs of their own remain for retries after a vendor failure and the stale-order sweep.
 */
export function createDeliveryQueueing(deps: { queue: Queue; state: Pick<DeliveryState, 'heardAtClaim' | 'queuedByPayment'> }) {
  const { queue, state } = deps
  // The order-created texts of orders the pump delivers: sent with its batch's texts. Lost with the
  // process, they are still in the outbox, and the minute sweep sends them (ADR 0022's fence).
  let texts: number[] = []
  // Whether an order a subscriber acts on at its claim was queued since the pump last looked: its claim
  // is a transaction, run when one may be waiting (and every few seconds, for other instances' orders).
  let heardQueued = false

  // `agent`: the order is an agent's, so its claim runs in a transaction for the agent's webhook
  // (a hint only: without it the claim tries the customer's one-statement path first).
  const enqueueSend = (orderId: number, opts: { transaction?: Transaction; runAt?: Date; sms?: number[]; agent?: boolean } = {}) =>
    queue.enqueue(
      DELIVERY_TASK,
      { orderId, ...(opts.sms?.length ? { sms: opts.sms } : {}), ...(opts.agent ? { agent: true } : {}) },
      { transaction: opts.transaction, runAt: opts.runAt, jobKey: `delivery:${orderId}` }
    )

  /**
   * After `t` commits (the orders are QUEUED and visible), the pump takes them and these texts.
   * `heard`: one of them is an order a subscriber acts on at its claim.
   */
  function wakeAfter(t: Transaction, sms: number[] = [], heard = false) {
    t.afterCommit(() => {
      if (texts.length + sms.length <= TEXTS_HELD_MAX) texts.push(...sms)
      if (heard) heardQueued = true
      queue.wake(DELIVERY_PUMP)
    })
  }

  return {
    enqueueSend,
    wakeAfter,

    /** The texts handed over since the last call, for the pump to send. */
    takeTexts(): number[] {
      const taken = texts
      texts = []
      return taken
    },

    /** Whether an order a subscriber acts on at its claim was queued since the last call (`again`: put the mark back). */
    takeHeard(again = false): boolean {
      const was = heardQueued
      heardQueued = again
      return was
    },

    /**
     * Settlement calls this in its transaction for a paid data order whose UPDATE queued it
     * (`queueOnPaymentSets`): the pump's wake-up and its `delivery.changed`. `sms`: outbox rows written
     * with `defer`, sent with the delivery. False when the order was not queued (manual mode): the caller sends them.
     */
    async onPaid(order: DeliveryRow, t: Transaction, sms: number[] = []): Promise<boolean> {
      if (order.delivery_status !== 'QUEUED') return false
      wakeAfter(t, sms, state.heardAtClaim(order))
      await state.queuedByPayment(order, t)
      return true
    },

    /**
     * `onPaid` for many orders paid in one statement (a bulk order's lines): one wake-up. It publishes
     * no `delivery.changed`: the caller publishes `orders.paidTogether`, which stands for each order's
     * NOT_STARTED -> QUEUED. Returns the ids of the orders queued.
     */
    async onPaidMany(orders: DeliveryRow[], t: Transaction): Promise<number[]> {
      const queued = orders.filter((o) => o.delivery_status === 'QUEUED')
      if (queued.length)
        wakeAfter(
          t,
          [],
          queued.some((o) => state.heardAtClaim(o))
        )
      return queued.map((o) => o.id)
    }
  }
}

export type DeliveryQueueing = ReturnType<typeof createDeliveryQueueing>
