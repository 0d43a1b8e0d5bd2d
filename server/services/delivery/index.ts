import type { Sequelize } from 'sequelize'
import type { Env } from '../../env.ts'
import type { Logger } from '../../lib/logger.ts'
import type { AuditService } from '../audit/index.ts'
import type { Queue } from '../queue/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { SmsService } from '../sms/index.ts'
import { createDeliveryAdmin } from './admin.ts'
import { createDeliveryQueries } from './queries.ts'
import { createDeliveryQueueing } from './queueing.ts'
import { createDeliveryState } from './state.ts'
import type { DeliveryEvents } from './types.ts'
import { createVendors } from './vendors/index.ts'
import { createDeliveryWorker } from './worker.ts'

export type { SimulatorInput } from './admin.ts'
export { queueOnPaymentSets } from './queries.ts'
export { DELIVERY_CHECK_TASK, DELIVERY_PUMP, DELIVERY_SWEEP_TASK, DELIVERY_TASK } from './tasks.ts'

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

export type DeliveryService = ReturnType<typeof createDeliveryService>

/**
 * Automatic fulfilment (ADR 0012): a paid order is queued for its vendor in the settlement's
 * transaction (queueing.ts); a worker claims it, calls the vendor with a key derived from the order,
 * and records the outcome (worker.ts); the back office retries, marks by hand and watches (admin.ts).
 * Every status change goes through state.setDeliveryStatus; the reads are queries.ts.
 */
export function createDeliveryService(deps: DeliveryDeps) {
  const { sequelize, env } = deps
  const queries = createDeliveryQueries(sequelize)
  const state = createDeliveryState({ ...deps, queries })
  const vendors = createVendors(env, sequelize)
  const queueing = createDeliveryQueueing({ queue: deps.queue, state })
  const { enqueueSend, takeTexts, takeHeard, wakeAfter } = queueing

  return {
    state,
    vendors,
    setDeliveryStatus: state.setDeliveryStatus,
    onPaid: queueing.onPaid,
    onPaidMany: queueing.onPaidMany,
    ...createDeliveryWorker({ ...deps, queries, state, vendors, enqueueSend, takeTexts, takeHeard }),
    ...createDeliveryAdmin({ ...deps, queries, state, vendors, wakeAfter })
  }
}
