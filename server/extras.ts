import type { Express } from 'express'
import type { Services } from './services/index.ts'
import { startJobs as scheduleJobs } from '../jobs/index.ts'
import { ussdRouter } from '../ussd/router.ts'
import { ussdSimulatorRouter } from '../ussd/simulator-router.ts'

/**
 * Channels outside /api that the server mounts before the pages (payment webhooks and the
 * simulator, the USSD gateway), and the scheduled jobs. Each later feature adds itself here.
 */
export function mountExtras(app: Express, services: Services): void {
  const { env, log } = services.deps
  // H7: the telco's USSD gateway (POST /ussd/africastalking, /ussd/arkesel) and its simulator's phone.
  app.use('/ussd', ussdRouter(services, { env, log }))
  app.use('/api/ussd-simulator', ussdSimulatorRouter(env))
}

export async function startJobs(services: Services): Promise<() => Promise<void>> {
  // H7: payment reconciliation and housekeeping (node-cron; each run under an advisory lock).
  return scheduleJobs({ services, log: services.deps.log })
}
