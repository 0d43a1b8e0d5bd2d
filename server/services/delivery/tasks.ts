// The job queue's tasks of delivery (registered in main.ts) and the shape of a batch job's payload.

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

/** One order of a batch job's payload (an array of these). */
export interface BatchItem {
  orderId: number
  sms?: number[]
}
