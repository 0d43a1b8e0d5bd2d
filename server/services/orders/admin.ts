import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import { copyCsv, type CopyCsvColumn } from '../../lib/csv-copy.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { sqlGhs, toGhs } from '../../lib/money.ts'
import { NETWORKS, NETWORK_LABEL } from '../../lib/vocabulary.ts'
import { paginationOf } from '../../lib/lists.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { DeliveryService } from '../delivery/index.ts'
import type { Events } from '../events/index.ts'
import { DELIVERY_STATUSES } from '../delivery/state.ts'
import type { Queue } from '../queue/index.ts'
import { copyExport, type ExportSink, PRUNE_CANDIDATES_TASK } from './exports.ts'
import { deleteExportedCandidates, isExportKeyClash, markCandidatesUnpruned, utcSecondsSql } from './queries-export.ts'
import { createAdminOrderQueries, PAYMENT_STATUSES, type AdminOrderRow, type OrderListQuery } from './queries-admin.ts'

export { PAYMENT_STATUSES }

export const listQuerySchema = Joi.object({
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20),
  includeExported: Joi.boolean().truthy('1').falsy('0').default(false),
  network: Joi.string()
    .uppercase()
    .valid(...NETWORKS, 'ALL')
    .empty(''),
  paymentStatus: Joi.string()
    .uppercase()
    .valid(...PAYMENT_STATUSES, 'ALL')
    .empty(''),
  orderType: Joi.string().lowercase().valid('agent', 'direct', 'all').empty(''),
  search: Joi.string().trim().max(100).allow(''),
  deliveryStatus: Joi.string()
    .uppercase()
    .valid(...DELIVERY_STATUSES, 'ALL')
    .empty(''),
  batchId: Joi.number().integer().min(1).max(2_147_483_647).empty('').messages({ '*': 'batchId must be a bulk order number' })
}).unknown(true) // the shared GET /api/orders carries other routers' parameters too

/** An order as the admin API speaks it (spec section 3: amount in GHS, user with optional agent). */
export function presentOrder(r: AdminOrderRow) {
  const agent = r.agentId ? { id: r.agentId, name: r.agentName, phone: r.agentPhone, approved: !!r.agentApproved } : null
  return {
    id: r.id,
    recipientNumber: r.recipientNumber,
    network: r.network,
    dataSizeMB: r.dataSizeMb,
    packageName: r.packageName,
    amount: toGhs(r.amountPesewas),
    paymentStatus: r.paymentStatus,
    paymentTransactionId: r.paymentTransactionId,
    paymentPhoneNumber: r.paymentPhoneNumber,
    channel: r.channel,
    delivered: r.delivered,
    deliveredAt: r.deliveredAt,
    exported: r.exported,
    exportedAt: r.exportedAt,
    deliveryStatus: r.deliveryStatus,
    deliveryVendor: r.deliveryVendor,
    deliveryReference: r.deliveryReference,
    deliveryAttempts: r.deliveryAttempts,
    deliveryError: r.deliveryError,
    simulated: !!r.simulated,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    orderType: agent ? 'agent' : 'direct',
    user: r.userId || agent ? { id: r.userId, email: r.userEmail, agent } : null,
    // Sold through an agent's shop (the buyer is the shop's customer; agent stays null).
    shop: r.shopId ? { id: r.shopId, slug: r.shopSlug, name: r.shopName, margin: toGhs(r.shopMarginPesewas ?? 0) } : null
  }
}
export type AdminOrder = ReturnType<typeof presentOrder>

/**
 * The export file's columns: what the person delivering the bundles needs, numbers kept as text.
 * PostgreSQL writes the CSV (ADR 0023): `raw` values are shaped here (our own labels for network,
 * order type, payment status and simulated; numbers; UTC 'YYYY-MM-DD HH:MM:SS'), `phone` and `text`
 * follow csv.ts's rules (server/lib/csv-copy.ts). `o` is the order, `a` its agent.
 */
const exportColumns = (exportedAt: string): CopyCsvColumn[] => [
  { header: 'Order ID', kind: 'raw', sql: 'o.id' },
  { header: 'Recipient Number', kind: 'phone', sql: 'o.recipient_number' },
  {
    header: 'Network',
    kind: 'raw',
    sql: `CASE o.network ${Object.entries(NETWORK_LABEL)
      .map(([k, v]) => `WHEN '${k}' THEN '${v}'`)
      .join(' ')} ELSE o.network END`
  },
  // As the pages' size label reads: GB with 1 decimal from 1024 MB, else MB (sizes are positive: the packages' save schema)
  {
    header: 'Data Size',
    kind: 'raw',
    sql: `CASE WHEN o.data_size_mb >= 1024 THEN round(o.data_size_mb / 1024.0, 1)::text || 'GB' ELSE o.data_size_mb::text || 'MB' END`
  },
  { header: 'Data Size (MB)', kind: 'raw', sql: 'o.data_size_mb' },
  { header: 'Amount (GHS)', kind: 'raw', sql: sqlGhs('o.amount_pesewas') },
  { header: 'Order Type', kind: 'raw', sql: `CASE WHEN o.agent_id IS NOT NULL THEN 'Agent' ELSE 'Direct Customer' END` },
  { header: 'Agent Name', kind: 'text', sql: 'a.name' },
  { header: 'Agent Phone', kind: 'phone', sql: 'a.phone' },
  { header: 'Payment Status', kind: 'raw', sql: 'o.payment_status' },
  { header: 'Transaction ID', kind: 'phone', sql: 'o.payment_transaction_id' },
  { header: 'Payment Phone', kind: 'phone', sql: 'o.payment_phone_number' },
  { header: 'Created At (UTC)', kind: 'raw', sql: utcSecondsSql('o.created_at') },
  { header: 'Exported At (UTC)', kind: 'raw', sql: exportedAt },
  // Simulator sales: no real money moved, so nobody should deliver them by hand.
  { header: 'Simulated Payment', kind: 'raw', sql: `CASE WHEN o.simulated THEN 'YES - do not deliver' ELSE 'no' END` }
]

type OrdersAdminService = ReturnType<typeof createOrdersAdminService>

export function createOrdersAdminService({
  sequelize,
  audit,
  delivery,
  events,
  queue
}: {
  sequelize: Sequelize
  audit: AuditService
  delivery: Pick<DeliveryService, 'markManual' | 'retry'>
  /** The export makes its orders MANUAL in bulk, past `delivery.changed`: it publishes `orders.exported` with the stamp naming its rows. */
  events: Pick<Events, 'publish'>
  /** The export queues the pruning of its candidates in its transaction (ADR 0050). */
  queue: Pick<Queue, 'enqueue'>
}) {
  const queries = createAdminOrderQueries(sequelize)

  return {
    listQuerySchema,

    async list(input: Record<string, unknown>, _ctx: Ctx = {}) {
      const { value: q, error } = listQuerySchema.validate(input, { convert: true })
      if (error) throw badRequest(error.message)
      const query = q as OrderListQuery
      const { rows, total, exact } = await queries.listPage(query)
      return { orders: rows.map(presentOrder), pagination: paginationOf(query.page, query.limit, total, exact) }
    },

    /** One way: a paid order is marked delivered (again is a no-op); unpaid ones never are. */
    async markDelivered(id: number, ctx: Ctx = {}) {
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw badRequest('Invalid order id')
      const row = await queries.deliveredState(id)
      if (!row) throw notFound('Order not found')
      if (row.paymentStatus !== 'SUCCESS') throw conflict('Only paid orders can be marked delivered')
      // MANUAL through the one status function (its audit entry is ORDER_DELIVERED).
      if (!row.delivered) await delivery.markManual(id, ctx)
      return presentOrder((await queries.adminOrder(id))!)
    },

    /** 'Retry delivery': back to the vendor (FAILED, or never sent in manual mode). */
    async retryDelivery(id: number, ctx: Ctx = {}) {
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw badRequest('Invalid order id')
      await delivery.retry(id, ctx)
      return presentOrder((await queries.adminOrder(id))!)
    },

    /**
     * The paid, undelivered, active orders, recorded as exported and streamed out as CSV in ONE
     * transaction and one statement (ADR 0021, 0023): one narrow order_exports row per order (the
     * orders rows are not written), oldest first (by id), the CSV made by PostgreSQL's COPY. If
     * anything fails before COMMIT, including the receiver going away, the transaction rolls back
     * and no order is exported.
     */
    async exportPending(sink: ExportSink, ctx: Ctx = {}): Promise<number> {
      return exportInTransaction(sink, ctx).catch(async (err) => {
        // A clash too late to retry in the statement (its rows had gone out): the next export keeps the probe.
        if (isExportKeyClash(err)) await markCandidatesUnpruned(sequelize)
        throw err
      })
    },

    /** The prune job's work: the export stamped `stamp` leaves the candidates. */
    pruneExportCandidates: (stamp: string) => deleteExportedCandidates(sequelize, stamp)
  }

  function exportInTransaction(sink: ExportSink, ctx: Ctx): Promise<number> {
    return sequelize.transaction(async (t) => {
      await queries.lockExports(t)
      // To the microsecond: it names this export's rows (the shop margins below read them by it).
      const { stamp, shown } = await queries.exportStamp(t)
      const csv = copyCsv(exportColumns(sequelize.escape(shown)))
      const count = await copyExport(t, csv, sequelize.escape(stamp), sink)
      if (count === 0) throw notFound('No orders available for export')
      // Its subscribers (the margins of the shop orders it delivers, ADR 0020 '## Shops') act in its transaction.
      await events.publish('orders.exported', { stamp }, { ...ctx, transaction: t })
      await audit.record({ action: 'ORDERS_EXPORTED', resource: 'ORDER', severity: 'MEDIUM', details: { count } }, { ...ctx, transaction: t })
      await queue.enqueue(PRUNE_CANDIDATES_TASK, { stamp }, { transaction: t })
      return count
    })
  }
}
