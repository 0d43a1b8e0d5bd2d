import type { Express } from 'express'
import type { Services } from './services/index.ts'
import { registerScheduledJobs } from '../jobs/index.ts'
import { ussdRouter } from '../ussd/router.ts'
import { ussdSimulatorRouter } from '../ussd/simulator-router.ts'

/**
 * Channels outside /api that the server mounts before the pages (payment webhooks and the
 * simulator, the USSD gateway), and the job queue's tasks. Each later feature adds itself here.
 */
export function mountExtras(app: Express, services: Services): void {
  const { env, log } = services.deps
  // H7: the telco's USSD gateway (POST /ussd/africastalking, /ussd/arkesel) and its simulator's phone.
  app.use('/ussd', ussdRouter(services, { env, log }))
  app.use('/api/ussd-simulator', ussdSimulatorRouter(env))
}

/** Every task the job queue runs (each receives its services); registered on every instance. */
export function registerTasks(services: Services): void {
  // Scheduled: payment reconciliation and housekeeping (graphile-worker crontab, once per tick).
  registerScheduledJobs(services.queue, { services, log: services.deps.log })
  // H13: signed webhooks to agents' software, retried with backoff.
  services.resellerApi.registerTasks(services.queue)
}
