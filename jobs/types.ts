import type { Logger } from '../server/lib/logger.ts'
import type { Services } from '../server/services/index.ts'

/** Jobs get what they use as arguments, so a test can run one tick directly. */
export interface JobDeps {
  services: Services
  log: Logger
}
