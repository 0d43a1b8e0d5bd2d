import type { Transaction } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import type { Ctx } from '../context.ts'
import type { Settings } from '../settings/index.ts'
import { createSettleQueries } from './queries-settle.ts'
import type { SettleDeps } from './settle-deps.ts'

export type LinesDeps = Pick<SettleDeps, 'sequelize' | 'audit' | 'commissions' | 'delivery' | 'events' | 'log'>

export interface PaidLines {
  /** The lines' payments (purpose 'data', PENDING), all of one agent. */
  transactionIds: string[]
  agentId: number
  message: string
  settings: Settings
}

/**
 * The success of many data payments already covered by money the caller holds (a bulk order's one
 * wallet debit, ADR 0039), set-based: one UPDATE for the payments, one for their orders (paid and
 * queued), one INSERT each for commissions, delivery jobs and audit entries, one event for the agent
 * webhooks. Each line ends exactly as `settle` leaves a single wallet order; the batch's own texts and
 * nothing of the agent's "order received" text apply (a batch line sends none). Only in the caller's
 * transaction, which made the payments: no one else can have settled them, and a line that does not
 * move throws, rolling the whole batch back.
 */
export async function settleLines(deps: LinesDeps, lines: PaidLines, ctx: Ctx & { transaction: Transaction }): Promise<number[]> {
  const t = ctx.transaction
  const { settings } = lines
  const queries = createSettleQueries(deps.sequelize)
  const payments = await queries.settleLinePayments(lines.transactionIds, lines.message, t)
  // Stryker disable next-line ConditionalExpression: a fence no input reaches: the caller wrote these PENDING payments in this transaction
  if (payments.length !== lines.transactionIds.length) throw new Error('bulk line payments did not all settle')
  const viaDelivery = !!deps.delivery && settings.deliveryMode !== 'manual'
  const orders = await queries.payLineOrders(
    payments.map((p) => p.order_id),
    viaDelivery,
    t
  )
  // Stryker disable next-line ConditionalExpression: a fence no input reaches: the caller wrote these PENDING orders in this transaction
  if (orders.length !== payments.length) throw new Error('bulk line orders did not all settle')
  const recorded = await deps.commissions.recordForOrders(orders, settings, t)
  const queued = new Set(deps.delivery ? await deps.delivery.onPaidMany(orders, t) : [])
  await deps.events.publish('orders.paidTogether', { orderIds: orders.map((o) => o.id), agentId: lines.agentId }, ctx)
  await deps.audit.recordMany(
    payments.map((p) => ({
      action: 'PAYMENT_SUCCESS',
      resource: 'PAYMENT',
      resourceId: p.transaction_id,
      severity: 'LOW' as const,
      userId: p.user_id,
      details: {
        transactionId: p.transaction_id,
        purpose: p.purpose,
        amount: toGhs(p.amount_pesewas),
        gateway: p.gateway,
        method: p.method,
        extTransactionId: p.ext_transaction_id,
        status: p.status,
        message: p.message,
        ...(p.simulated ? { simulated: true } : {}),
        orderId: p.order_id,
        commissionRecorded: recorded.has(Number(p.order_id)),
        ...(deps.delivery ? { deliveryQueued: queued.has(Number(p.order_id)) } : {})
      }
    })),
    ctx
  )
  // Stryker disable next-line ObjectLiteral,CallExpression: a log line (its call and its fields), left out like the texts
  deps.log.info({ lines: payments.length, agentId: lines.agentId }, 'bulk line payments settled')
  return orders.map((o) => Number(o.id))
}
