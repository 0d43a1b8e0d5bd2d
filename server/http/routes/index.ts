import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { apiNotFound } from '../middleware/errors.ts'
import { authRouter } from './auth/index.ts'
import { settingsRouter } from './settings/index.ts'
import { auditLogsRouter } from './audit-logs/index.ts'
import { commissionAnalyticsRouter } from './commissions/analytics.ts'
import { commissionsRouter } from './commissions/index.ts'
import { adminMessagesRouter } from './admin-messages/index.ts'
import { inboxRouter } from './admin-messages/inbox.ts'
import { adminUsersRouter } from './admin-users/index.ts'
import { packagesAdminRouter, packagesRouter } from './packages/index.ts'
import { whitelistRouter } from './whitelist/index.ts'
import { agentsRouter } from './agents/index.ts'
import { ordersAgentRouter } from './orders/agent.ts'
import { adminStatsRouter } from './admin-stats.ts'
import { paymentsAdminRouter } from './payments/admin.ts'
import { ordersAdminRouter } from './orders/admin.ts'
import { afaAdminRouter, afaRouter } from './afa/index.ts'
import { ordersRouter } from './orders/index.ts'
import { paymentRouter } from './payments/index.ts'
import { webhooksRouter } from './payments/webhooks.ts'
import { whatsappRouter } from './whatsapp/index.ts'
import { simulatorRouter } from './simulator.ts'
import { deliveryRouter } from './delivery/index.ts'
import { walletRouter } from './wallet/index.ts'
import { apiV1Router } from './api-v1/index.ts'
import { resellerRouter } from './reseller/index.ts'
import { shopsAdminRouter, shopsRouter } from './shops/index.ts'
import { subAgentsRouter, tiersAdminRouter } from './tiers/index.ts'
import { adminPayoutsRouter, payoutsRouter } from './payouts/index.ts'
import { bulkRouter } from './bulk/index.ts'
import { vouchersRouter } from './vouchers/index.ts'

/** Every /api resource, one router each. Add a line here for a new resource. */
export function apiRouter(services: Services) {
  const api = Router()
  // The reseller API, authenticated by API key (its own 404s, errors in the same shape).
  api.use('/v1', apiV1Router(services))
  api.use('/auth', authRouter(services))
  api.use('/settings', settingsRouter(services))
  api.use('/admin', adminUsersRouter(services))
  api.use('/packages', packagesAdminRouter(services))
  api.use('/ussd-whitelist', whitelistRouter(services))
  api.use('/admin-messages', adminMessagesRouter(services))
  api.use('/admin', auditLogsRouter(services))
  api.use('/commissions', commissionsRouter(services))
  api.use('/commission-analytics', commissionAnalyticsRouter(services))
  api.use('/agents', agentsRouter(services))
  api.use('/admin-messages', inboxRouter(services))
  api.use('/admin', adminStatsRouter(services))
  api.use('/admin', paymentsAdminRouter(services))
  // Storefront and payments (public orders/afa first: they pass on what they do not handle).
  api.use('/packages', packagesRouter(services))
  api.use('/orders', ordersRouter(services))
  api.use('/afa', afaRouter(services))
  api.use('/payment', paymentRouter(services))
  api.use('/webhooks', webhooksRouter(services))
  api.use('/simulator', simulatorRouter(services))
  // WhatsApp ordering: Meta's webhook, its simulator, the admins' handed-off chats.
  api.use('/whatsapp', whatsappRouter(services))
  api.use('/delivery', deliveryRouter(services))
  // The agent wallet.
  api.use('/wallet', walletRouter(services))
  api.use('/vouchers', vouchersRouter(services))
  api.use('/reseller', resellerRouter(services))
  // Agents' shops (public view and purchases, the agent's own shop) and the admins' list.
  api.use('/shops', shopsRouter(services))
  api.use('/admin', shopsAdminRouter(services))
  // Tiers and sub-agents (ADR 0041).
  api.use('/sub-agents', subAgentsRouter(services))
  api.use('/admin/tiers', tiersAdminRouter(services))
  // Payouts of shop earnings to mobile money (agent) and their admin page.
  api.use('/payouts', payoutsRouter(services))
  api.use('/admin/payouts', adminPayoutsRouter(services))
  // Bulk orders: an agent's list of numbers paid once (ADR 0039).
  api.use('/bulk', bulkRouter(services))
  // After the public orders/afa routers, before the agents' own list.
  api.use('/orders', ordersAdminRouter(services))
  api.use('/afa', afaAdminRouter(services))
  // Keep LAST for /orders: the agents' own list answers whatever the public and admin routers pass on.
  api.use('/orders', ordersAgentRouter(services))
  api.use(apiNotFound)
  return api
}
