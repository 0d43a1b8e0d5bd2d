import { createOpsMetrics } from './ops/metrics.ts'
import type { Sequelize } from 'sequelize'
import type { Models } from '../../models/index.ts'
import type { Env } from '../env.ts'
import type { Logger } from '../lib/logger.ts'
import { createAuditService } from './audit/index.ts'
import { createAuthService } from './auth/index.ts'
import { createAuditLogsService } from './audit/logs.ts'
import { createCommissionReportsService } from './commissions/reports.ts'
import { createRateLimitService } from './limits/rate-limit.ts'
import { createSessionsService } from './auth/sessions.ts'
import { createRecoveryService } from './recovery/index.ts'
import { createSettingsService } from './settings/index.ts'
import { createUssdService } from './ussd/index.ts'
import { createWhatsappService } from './whatsapp/index.ts'
import { createAdminMessagesService } from './messages/admin-messages.ts'
import { createPackagesAdminService } from './packages/admin.ts'
import { createUsersAdminService } from './auth/users-admin.ts'
import { createWhitelistService } from './whitelist/index.ts'
import { createAgentsService, type FeePayments } from './agents/index.ts'
import { createInboxService } from './messages/inbox.ts'
import { createAgentOrdersService } from './orders/agent-orders.ts'
import { createAdminStatsService } from './reports/admin-stats.ts'
import { createPublicStatsService } from './reports/public-stats.ts'
import { createOrdersAdminService } from './orders/admin.ts'
import { createAfaAdminService } from './afa/admin.ts'
import { createPackagesService } from './packages/index.ts'
import { createSmsService } from './sms/index.ts'
import { createCommissionsService } from './commissions/index.ts'
import { createPaymentsService } from './payments/index.ts'
import { createSimulatorControl } from './payments/simulator.ts'
import { createLimitsService } from './limits/index.ts'
import { createLoginThrottle } from './limits/login-throttle.ts'
import { createOrdersService } from './orders/index.ts'
import { createAfaService } from './afa/index.ts'
import { createQueue } from './queue/index.ts'
import { createConnectionStates } from '../lib/connection-states.ts'
import { createDeliveryService } from './delivery/index.ts'
import { createWalletService } from './wallet/index.ts'
import { createEarningsService } from './earnings/index.ts'
import { createShopsService } from './shops/index.ts'
import { createPayoutsService } from './payouts/index.ts'
import { walletRefundHandler } from './wallet/refund-handler.ts'
import { createResellerApi } from './reseller-api/index.ts'
import type { PaymentHooks } from './payments/hooks.ts'

export interface Deps {
  sequelize: Sequelize
  models: Models
  env: Env
  log: Logger
  /** The database URL, for the job queue's own pool (LISTEN/NOTIFY); scripts without workers may omit it. */
  url?: string
}

/**
 * The one domain layer. The API, the pages' +data hooks, the USSD menu and the jobs all call these.
 * Each service receives what it needs; none sees req/res.
 */
export function createServices(deps: Deps) {
  const { sequelize, models } = deps
  const audit = createAuditService({ models })
  // The one durable job queue: other services enqueue into it inside their transactions.
  // This instance's long-lived database connections, up or down (/metrics, /readyz).
  const connections = createConnectionStates(deps.log)
  const queue = createQueue({
    sequelize,
    url: deps.url ?? '',
    log: deps.log,
    connections,
    options: { concurrency: deps.env.QUEUE_CONCURRENCY, poolMax: deps.env.QUEUE_POOL_MAX, completeBatchMs: deps.env.QUEUE_COMPLETE_BATCH_MS, localSize: deps.env.QUEUE_LOCAL_SIZE },
  })
  const rateLimit = createRateLimitService({ sequelize })
  const settings = createSettingsService({ models, audit, sequelize, connections })
  const limits = createLimitsService({ sequelize })
  const sessions = createSessionsService({ sequelize, audit })
  const auth = createAuthService({ sequelize, models, audit, sessions, throttle: createLoginThrottle({ sequelize }) })
  // Text messages: outbox row + dispatch job in the caller's transaction (H11).
  const sms = createSmsService({ sequelize, models, queue, settings, env: deps.env, log: deps.log })
  // H5b back office: users and roles, packages, USSD whitelist, admin messages.
  const usersAdmin = createUsersAdminService({ sequelize, models, audit })
  const packagesAdmin = createPackagesAdminService({ sequelize, models, audit })
  const whitelist = createWhitelistService({ sequelize, models, audit, settings })
  const adminMessages = createAdminMessagesService({ sequelize, models, audit })
  // H4 agent programme: registration, fee payment (through payments, looked up when used), approval, PIN; the inbox.
  const late: { payments?: FeePayments } = {}
  const agents = createAgentsService({ sequelize, models, audit, auth, settings, limits, sms, payments: () => late.payments })
  const inbox = createInboxService({ sequelize, models })
  const agentOrders = createAgentOrdersService({ sequelize, models })
  // H6 back office insight: audit trail queries and exports, commission reports and archive.
  const auditLogs = createAuditLogsService({ sequelize, audit })
  const commissionReports = createCommissionReportsService({ sequelize, audit })
  // H5a back office operations: overview figures, orders list/delivery/export, AFA registrations.
  const adminStats = createAdminStatsService({ sequelize, settings })
  const publicStats = createPublicStatsService({ sequelize })
  const ordersAdmin = createOrdersAdminService({ sequelize, audit, delivery: () => delivery, onExported: (stamp, t) => shops.creditMarginsOfExport(stamp, t) })
  const afaAdmin = createAfaAdminService({ sequelize, audit })
  // H7 USSD channel: dial-in access, PIN lock, session store (the menu itself lives in ussd/).
  const ussd = createUssdService({ sequelize, models, settings, audit })
  // H3 storefront and payments: packages, orders, the payment providers (Paystack or the simulator), AFA, SMS outbox.
  const packages = createPackagesService({ models })
  // H11 delivery: vendors behind one interface, queued by settlement in its transaction.
  const delivery = createDeliveryService({ sequelize, audit, settings, sms, queue, env: deps.env, log: deps.log })
  const commissions = createCommissionsService({ sequelize })
  // Settlement tells these of order status changes inside its transaction (agent webhooks, bound below).
  const paymentHooks: PaymentHooks = {}
  const payments = createPaymentsService({ ...deps, settings, audit, commissions, sms, delivery, queue, hooks: paymentHooks })
  // A delivery that failed for good gives the money back when the shop says so (wallet orders always),
  // decided in the same transaction as the FAILED status (ADR 0012, 0013).
  delivery.state.onChange(async ({ order, to, details }, transaction) => {
    if (to === 'FAILED') await payments.onDeliveryFailed(order.id, `Delivery failed: ${details?.error ?? 'the vendor could not deliver'}`.slice(0, 500), { transaction })
  }, { to: ['FAILED'] })
  late.payments = payments
  // H19 account recovery: reset codes by SMS (outbox) and email, limits in PostgreSQL, sessions end on reset;
  // on while the payment simulator is the gateway, like the other simulators.
  const recovery = createRecoveryService({ ...deps, settings, audit, sms, sessions, queue, paymentsSimulated: payments.isSimulator })
  const simulator = createSimulatorControl({ sequelize, env: deps.env, payments, active: payments.isSimulator, log: deps.log })
  // H13 agent wallet: ledger, top-ups (a payment purpose), wallet-paid orders settled the same single way.
  const wallet = createWalletService({ sequelize, models, settings, audit, payments })
  // Issue 20: an agent's shop margins and payouts, a second balance on the wallet's row (ADR 0020).
  const earnings = createEarningsService({ sequelize })
  // Issue 20: payouts of earnings to mobile money (Paystack Transfers or the simulator); transfer.* webhooks come here.
  const payouts = createPayoutsService({ sequelize, env: deps.env, log: deps.log, audit, settings, earnings, queue, attention: payments.attention })
  payments.events.on('transfer.', (e, ctx) => payouts.onTransferEvent(e, ctx))
  const orders = createOrdersService({ sequelize, models, settings, audit, packages, payments, wallet })
  // H13 reseller API: keys, /api/v1 orders with idempotency, signed agent webhooks through the queue.
  const resellerApi = createResellerApi({ sequelize, env: deps.env, log: deps.log, audit, auth, packages, orders, wallet, queue })
  const agentWebhooks = resellerApi.webhooks
  paymentHooks.orderStatusChanged = (orderId, ctx) => agentWebhooks.onOrderStatusChange(orderId, ctx).then(() => undefined)
  // Each delivery status change of an agent's order reaches the agent's software, in the change's transaction.
  delivery.state.onChange(async ({ order }, transaction) => {
    if (order.agent_id) await agentWebhooks.onOrderStatusChange(order.id, { transaction })
  }, { agentOrdersOnly: true })
  // A refund of a wallet-paid order goes back to the wallet (issue 13), through the one refund path.
  payments.refunds.registerHandler('wallet', walletRefundHandler(sequelize, wallet))
  // Issue 20 shops: an agent's shop and prices; its margin is credited on delivery and taken back on a refund or reversal,
  // each in that change's transaction (ADR 0020).
  const shops = createShopsService({ sequelize, audit, settings, packages, orders, earnings })
  delivery.state.onChange(async ({ order, to }, transaction) => {
    if (to === 'DELIVERED' || to === 'MANUAL') await shops.creditMargin(order, transaction)
  }, { to: ['DELIVERED', 'MANUAL'], shopOrdersOnly: true })
  paymentHooks.orderMoneyReturned = (orderId, why, ctx) => shops.reverseMargin(orderId, why, ctx).then(() => undefined)
  const afa = createAfaService({ sequelize, settings, payments })
  // WhatsApp ordering (ADR 0042): the bot places visitor orders; a delivery sends the chat its receipt in the change's transaction.
  const whatsapp = createWhatsappService({ sequelize, env: deps.env, log: deps.log, settings, packages, orders, limits, queue })
  delivery.state.onChange(async ({ order, to }, transaction) => whatsapp.onDeliveryChange(order, to, transaction), { to: ['DELIVERED', 'FAILED'] })
  const opsMetrics = createOpsMetrics({ sequelize })
  return { connections, queue, whatsapp, opsMetrics, sessions, recovery, wallet, earnings, shops, payouts, resellerApi, agentWebhooks, packages, sms, delivery, commissions, payments, simulator, orders, afa, ussd, adminStats, publicStats, ordersAdmin, afaAdmin, deps, audit, auditLogs, commissionReports, rateLimit, limits, settings, auth, usersAdmin, packagesAdmin, whitelist, adminMessages, agents, inbox, agentOrders }
}

export type Services = ReturnType<typeof createServices>
