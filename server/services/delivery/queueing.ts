import type { Transaction } from 'sequelize'
import type { Queue } from '../queue/index.ts'
import type { DeliveryState } from './state.ts'
import { DELIVERY_BATCH_SLOTS, DELIVERY_TASK } from './tasks.ts'
import type { DeliveryRow } from './types.ts'

/** Paid orders onto the job queue, in the settlement's transaction: alone, or gathered in a batch job (ADR 0026). */
export function createDeliveryQueueing(deps: { queue: Queue; state: Pick<DeliveryState, 'batchable' | 'queuedByPayment'> }) {
  const { queue, state } = deps

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

  return {
    enqueueSend,

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
    }
  }
}

export type DeliveryQueueing = ReturnType<typeof createDeliveryQueueing>
