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
import { subscribeWhatsapp } from './whatsapp/subscriptions.ts'
import { createAdminMessagesService } from './messages/admin-messages.ts'
import { createPackagesAdminService } from './packages/admin.ts'
import { createUsersAdminService } from './auth/users-admin.ts'
import { createWhitelistService } from './whitelist/index.ts'
import { createAgentsService } from './agents/index.ts'
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
import { createAttention } from './payments/attention.ts'
import { createDomainEvents } from './events/index.ts'
import { createPageDataService } from './page-data/index.ts'
import { createSignedInService } from './signed-in/index.ts'
import { subscribePayments } from './payments/subscriptions.ts'
import { subscribeResellerApi } from './reseller-api/subscriptions.ts'
import { subscribeShops } from './shops/subscriptions.ts'
import { createBulkService } from './bulk/index.ts'
import { createBatchApi } from './bulk/api.ts'
import { subscribeBulk } from './bulk/subscriptions.ts'
import { createVouchersService } from './vouchers/index.ts'
import { subscribeVouchers } from './vouchers/subscriptions.ts'
import { createApiVouchers } from './reseller-api/vouchers.ts'
import { createPricingService } from './pricing/index.ts'
import { createTiersService } from './pricing/tiers.ts'
import { createSubAgentsService } from './sub-agents/index.ts'
import { subscribeSubAgents } from './sub-agents/subscriptions.ts'
import { createShopCheckersService } from './shop-checkers/index.ts'
import { subscribeShopCheckers } from './shop-checkers/subscriptions.ts'

export interface Deps {
  sequelize: Sequelize
  models: Models
  env: Env
  log: Logger
  /** The database URL, for the job queue's own pool (LISTEN/NOTIFY); scripts without workers may omit it. */
  url?: string
  /** Milliseconds now, for what kept page data ages by; tests give one they move instead of waiting. */
  now?: () => number
}

/**
 * The one domain layer. The API, the pages' +data hooks, the USSD menu and the jobs all call these.
 * Each service receives what it needs, built before it; none sees req/res. Capabilities that react to
 * another's facts subscribe to the domain events at the end, one `subscribeX(events, x)` each (ADR 0037).
 */
export function createServices(deps: Deps) {
  const { sequelize, models } = deps
  const audit = createAuditService({ models })
  // The facts capabilities react to, published inside the transactions that make them true (ADR 0037).
  const events = createDomainEvents()
  // The one durable job queue: other services enqueue into it inside their transactions.
  // This instance's long-lived database connections, up or down (/metrics, /readyz).
  const connections = createConnectionStates(deps.log)
  const queue = createQueue({
    sequelize,
    url: deps.url ?? '',
    log: deps.log,
    connections,
    options: {
      concurrency: deps.env.QUEUE_CONCURRENCY,
      poolMax: deps.env.QUEUE_POOL_MAX,
      completeBatchMs: deps.env.QUEUE_COMPLETE_BATCH_MS,
      localSize: deps.env.QUEUE_LOCAL_SIZE
    }
  })
  const rateLimit = createRateLimitService({ sequelize })
  const settings = createSettingsService({ models, audit, sequelize, connections })
  const limits = createLimitsService({ sequelize })
  const sessions = createSessionsService({ sequelize, audit })
  const auth = createAuthService({ sequelize, models, audit, sessions, throttle: createLoginThrottle({ sequelize }) })
  // Text messages: outbox row + dispatch job in the caller's transaction.
  const sms = createSmsService({ sequelize, models, queue, settings, env: deps.env, log: deps.log })
  // Back office: users and roles, packages, USSD whitelist, admin messages.
  const usersAdmin = createUsersAdminService({ sequelize, models, audit })
  const packagesAdmin = createPackagesAdminService({ sequelize, models, audit })
  const whitelist = createWhitelistService({ sequelize, models, audit, settings })
  const adminMessages = createAdminMessagesService({ sequelize, models, audit })
  // Back office insight: audit trail queries and exports, commission reports and archive.
  const auditLogs = createAuditLogsService({ sequelize, audit })
  const commissionReports = createCommissionReportsService({ sequelize, audit })
  // Back office operations: overview figures, orders list/delivery/export, AFA registrations.
  const adminStats = createAdminStatsService({ sequelize, settings })
  const publicStats = createPublicStatsService({ sequelize })
  const afaAdmin = createAfaAdminService({ sequelize, audit })
  // USSD channel: dial-in access, PIN lock, session store (the menu itself lives in ussd/).
  const ussd = createUssdService({ sequelize, models, settings, audit })
  // Storefront and payments: packages, orders, the payment providers (Paystack or the simulator), AFA, SMS outbox.
  const packages = createPackagesService({ models })
  // Delivery: vendors behind one interface, queued by settlement in its transaction.
  const delivery = createDeliveryService({ sequelize, audit, settings, sms, queue, env: deps.env, log: deps.log, events })
  const ordersAdmin = createOrdersAdminService({ sequelize, audit, delivery, events, queue })
  const commissions = createCommissionsService({ sequelize })
  // An agent's shop margins and payouts, a second balance on the wallet's row (ADR 0020).
  const earnings = createEarningsService({ sequelize })
  // Payment issues for the admin: payouts note theirs on the same list.
  const attention = createAttention({ sequelize })
  // Payouts of earnings to mobile money (Paystack Transfers or the simulator); transfer.* webhooks come here.
  const payouts = createPayoutsService({ sequelize, env: deps.env, log: deps.log, audit, settings, earnings, queue, attention })
  // A refund of a wallet-paid order goes back to the wallet through the one refund path.
  const payments = createPaymentsService({
    ...deps,
    settings,
    audit,
    commissions,
    sms,
    delivery,
    queue,
    events,
    attention,
    refundHandlers: { wallet: walletRefundHandler({ sequelize, audit }) },
    gatewayEvents: [{ prefix: 'transfer.', handle: payouts.onTransferEvent }]
  })
  // Agent programme: registration, fee payment (through payments), approval, PIN; the inbox.
  const agents = createAgentsService({ sequelize, models, audit, auth, settings, limits, sms, payments })
  const inbox = createInboxService({ sequelize, models })
  const agentOrders = createAgentOrdersService({ sequelize, models })
  // Account recovery: reset codes by SMS (outbox) and email, limits in PostgreSQL, sessions end on reset;
  // on while the payment simulator is the gateway, like the other simulators.
  const recovery = createRecoveryService({ ...deps, settings, audit, sms, sessions, queue, paymentsSimulated: payments.isSimulator })
  const simulator = createSimulatorControl({ sequelize, env: deps.env, payments, active: payments.isSimulator, log: deps.log })
  // Agent wallet: ledger, top-ups (a payment purpose), wallet-paid orders settled the same single way.
  const wallet = createWalletService({ sequelize, models, settings, audit, payments })
  // Tiers and sub-agents (ADR 0041): THE price rule every channel asks (`pricing.priceFor`), the admin's tiers.
  const pricing = createPricingService({ sequelize, settings })
  const tiers = createTiersService({ sequelize, audit, packages, pricing })
  const orders = createOrdersService({ sequelize, models, settings, audit, packages, payments, wallet, pricing })
  // Reseller API: keys, /api/v1 orders with idempotency, signed agent webhooks through the queue.
  const resellerApi = createResellerApi({ sequelize, env: deps.env, log: deps.log, audit, packages, pricing, orders, wallet, queue })
  const agentWebhooks = resellerApi.webhooks
  // Bulk orders (ADR 0039): one wallet debit for many ordinary orders; the change that ends a batch's last line tells the agent's software.
  const bulk = createBulkService({ sequelize, audit, settings, packages, pricing, payments, sms, webhooks: agentWebhooks })
  const batchApi = createBatchApi({ sequelize, bulk })
  // Shops: an agent's shop and prices; its margin follows the order's delivery and money (subscriptions below).
  const shops = createShopsService({ sequelize, audit, settings, packages, pricing, orders, earnings })
  // Sub-agents (ADR 0041): the parent's margin follows its sub-agents' deliveries and refunds (subscriptions below).
  const subAgents = createSubAgentsService({ sequelize, audit, settings, packages, pricing, earnings })
  const afa = createAfaService({ sequelize, settings, payments })
  // WhatsApp ordering (ADR 0042): the bot places visitor orders; a delivery sends the chat its receipt in the change's transaction.
  const whatsapp = createWhatsappService({ sequelize, env: deps.env, log: deps.log, settings, packages, pricing, orders, limits, shops, queue })
  const opsMetrics = createOpsMetrics({ sequelize })
  // Result-checker vouchers: a paid purchase takes its cards in the settlement's transaction (ADR 0040).
  const vouchers = createVouchersService({ sequelize, env: deps.env, audit, settings, payments, sms, limits })
  const apiVouchers = createApiVouchers({ sequelize, vouchers })
  // Agents' shops sell checker cards too: the margin on the cards a purchase got, in the settlement's transaction.
  const shopCheckers = createShopCheckersService({ sequelize, audit, shops, vouchers, earnings })
  // Signed-in pages' data between loads (ADR 0048), dropped by the notices of every instance's writes.
  const pageData = createPageDataService({ settings, packages, now: deps.now })
  // The signed-in session and user between loads, dropped the same way.
  const signedIn = createSignedInService({ auth })

  // Who reacts to which fact, in this order within each transaction: a delivery that failed for good is
  // refunded before the agent's webhook reports it, and a margin is credited after both.
  subscribePayments(events, payments)
  subscribeResellerApi(events, agentWebhooks)
  subscribeShops(events, shops)
  subscribeSubAgents(events, subAgents)
  subscribeBulk(events, bulk)
  subscribeVouchers(events, vouchers)
  subscribeShopCheckers(events, shopCheckers)
  subscribeWhatsapp(events, whatsapp)
  return {
    events,
    whatsapp,
    pricing,
    tiers,
    subAgents,
    vouchers,
    apiVouchers,
    shopCheckers,
    connections,
    queue,
    opsMetrics,
    bulk,
    batchApi,
    sessions,
    recovery,
    wallet,
    earnings,
    shops,
    payouts,
    resellerApi,
    agentWebhooks,
    packages,
    sms,
    delivery,
    commissions,
    payments,
    simulator,
    orders,
    afa,
    ussd,
    adminStats,
    pageData,
    signedIn,
    publicStats,
    ordersAdmin,
    afaAdmin,
    deps,
    audit,
    auditLogs,
    commissionReports,
    rateLimit,
    limits,
    settings,
    auth,
    usersAdmin,
    packagesAdmin,
    whitelist,
    adminMessages,
    agents,
    inbox,
    agentOrders
  }
}

export type Services = ReturnType<typeof createServices>
export type { BatchLineView } from './bulk/index.ts'
