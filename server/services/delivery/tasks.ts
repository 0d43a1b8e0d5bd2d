// The job queue's tasks of delivery (registered in main.ts) and the shape of a batch job's payload.

export const DELIVERY_TASK = 'delivery.send'
export const DELIVERY_CHECK_TASK = 'delivery.check'
export const DELIVERY_SWEEP_TASK = 'delivery.sweep'
/** The queue's poller that claims paid orders awaiting delivery from the orders table (ADR 0056). */
export const DELIVERY_PUMP = 'delivery.pump'

/** One order of a batch job's payload (an array of these; jobs queued before ADR 0056 and their parts). */
export interface BatchItem {
  orderId: number
  sms?: number[]
}
