import type { Transaction } from 'sequelize'
import type { Queue } from '../queue/index.ts'
import type { DeliveryState } from './state.ts'
import { DELIVERY_PUMP, DELIVERY_TASK } from './tasks.ts'
import type { DeliveryRow } from './types.ts'

/** Texts handed to the pump at most; beyond it (an instance with no workers) the minute sweep sends them. */
const TEXTS_HELD_MAX = 10_000

/**
 * Paid orders onto the delivery queue, in the settlement's transaction. An order no subscriber acts
 * on at its claim or delivery is its own queue row (ADR 0056): the settlement's UPDATE made it QUEUED,
 * and after the commit this instance's delivery pump is woken. Any other order gets a job of its own.
 */
export function createDeliveryQueueing(deps: { queue: Queue; state: Pick<DeliveryState, 'batchable' | 'queuedByPayment'> }) {
  const { queue, state } = deps
  // The order-created texts of orders the pump delivers: sent with its batch's texts. Lost with the
  // process, they are still in the outbox, and the minute sweep sends them (ADR 0022's fence).
  let texts: number[] = []

  // `agent`: the order is an agent's, so its claim runs in a transaction for the agent's webhook
  // (a hint only: without it the claim tries the customer's one-statement path first).
  const enqueueSend = (orderId: number, opts: { transaction?: Transaction; runAt?: Date; sms?: number[]; agent?: boolean } = {}) =>
    queue.enqueue(
      DELIVERY_TASK,
      { orderId, ...(opts.sms?.length ? { sms: opts.sms } : {}), ...(opts.agent ? { agent: true } : {}) },
      { transaction: opts.transaction, runAt: opts.runAt, jobKey: `delivery:${orderId}` }
    )

  /** After `t` commits (the orders are QUEUED and visible), the pump takes them and these texts. */
  function wakeAfter(t: Transaction, sms: number[] = []) {
    t.afterCommit(() => {
      if (texts.length + sms.length <= TEXTS_HELD_MAX) texts.push(...sms)
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

    /**
     * Settlement calls this in its transaction for a paid data order whose UPDATE queued it
     * (`queueOnPaymentSets`): the pump's wake-up or the order's job, and its `delivery.changed`. `sms`: outbox rows
     * written with `defer`, sent with the delivery. False when the order was not queued (manual mode): the caller sends them.
     */
    async onPaid(order: DeliveryRow, t: Transaction, sms: number[] = []): Promise<boolean> {
      if (order.delivery_status !== 'QUEUED') return false
      if (state.batchable(order)) wakeAfter(t, sms)
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
      if (alone.length < queued.length) wakeAfter(t)
      await queue.enqueueMany(
        alone.map((o) => ({ task: DELIVERY_TASK, payload: { orderId: o.id, ...(o.agent_id ? { agent: true } : {}) }, jobKey: `delivery:${o.id}` })),
        t
      )
      return queued.map((o) => o.id)
    }
  }
}

export type DeliveryQueueing = ReturnType<typeof createDeliveryQueueing>
