import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { apiNotFound } from '../middleware/errors.ts'
import { authRouter } from './auth.ts'
import { settingsRouter } from './settings.ts'
import { auditLogsRouter } from './audit-logs.ts'
import { commissionsRouter } from './commissions.ts'
import { commissionAnalyticsRouter } from './commission-analytics.ts'
import { adminMessagesRouter } from './admin-messages.ts'
import { adminUsersRouter } from './admin-users.ts'
import { packagesAdminRouter } from './packages-admin.ts'
import { whitelistRouter } from './whitelist.ts'

/** Every /api resource, one router each. Add a line here for a new resource. */
export function apiRouter(services: Services) {
  const api = Router()
  api.use('/auth', authRouter(services))
  api.use('/settings', settingsRouter(services))
  api.use('/admin', adminUsersRouter(services))
  api.use('/packages', packagesAdminRouter(services))
  api.use('/ussd-whitelist', whitelistRouter(services))
  api.use('/admin-messages', adminMessagesRouter(services))
  api.use('/admin', auditLogsRouter(services))
  api.use('/commissions', commissionsRouter(services))
  api.use('/commission-analytics', commissionAnalyticsRouter(services))
  api.use(apiNotFound)
  return api
}
