import type { Sequelize } from 'sequelize'
import type { Models } from '../../models/index.ts'
import type { Env } from '../env.ts'
import type { Logger } from '../lib/logger.ts'
import { createAuditService } from './audit.ts'
import { createAuthService } from './auth.ts'
import { createRateLimitService } from './rate-limit.ts'
import { createSettingsService } from './settings.ts'

export interface Deps {
  sequelize: Sequelize
  models: Models
  env: Env
  log: Logger
}

/**
 * The one domain layer. The API, the pages' +data hooks, the USSD menu and the jobs all call these.
 * Each service receives what it needs; none sees req/res.
 */
export function createServices(deps: Deps) {
  const { sequelize, models } = deps
  const audit = createAuditService({ models })
  const rateLimit = createRateLimitService({ sequelize })
  const settings = createSettingsService({ models, audit })
  const auth = createAuthService({ models, audit, rateLimit })
  return { deps, audit, rateLimit, settings, auth }
}

export type Services = ReturnType<typeof createServices>
