import type { Express } from 'express'
import type { Services } from './services/index.ts'

/**
 * Channels outside /api that the server mounts before the pages (payment webhooks and the
 * simulator, the USSD gateway), and the scheduled jobs. Each later feature adds itself here.
 */
export function mountExtras(_app: Express, _services: Services): void {}

export async function startJobs(_services: Services): Promise<() => Promise<void>> {
  return async () => {}
}
