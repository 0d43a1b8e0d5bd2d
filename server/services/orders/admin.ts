import Joi from 'joi'
import { QueryTypes, type Sequelize } from 'sequelize'
import { copyCsv, type CopyCsvColumn } from '../../lib/csv-copy.ts'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import { sqlGhs, toGhs } from '../../lib/money.ts'
import { NETWORKS, NETWORK_LABEL } from '../../lib/vocabulary.ts'
import { cappedCount, likePattern, paginationOf, phoneLikes } from '../../lib/lists.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { DeliveryService } from '../delivery/index.ts'
import type { Events } from '../events/index.ts'
import { DELIVERY_STATUSES } from '../delivery/state.ts'
import { EXPORT_LOCK } from '../delivery/export-lock.ts'
import { copyExport, EXPORTABLE, type ExportSink } from './exports.ts'

export const PAYMENT_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED', 'REFUNDED', 'REVERSED'] as const

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

export interface OrderListQuery {
  page: number
  limit: number
  includeExported: boolean
  network?: string
  paymentStatus?: string
  orderType?: 'agent' | 'direct' | 'all'
  search?: string
  deliveryStatus?: string
  /** The lines of one bulk order (ADR 0039). */
  batchId?: number
}

interface OrderRow {
  id: number
  user_id: number | null
  user_email: string | null
  agent_id: number | null
  agent_name: string | null
  agent_phone: string | null
  agent_approved: boolean | null
  package_name: string | null
  recipient_number: string
  network: string
  data_size_mb: number
  amount_pesewas: number | null
  payment_status: string
  payment_transaction_id: string | null
  payment_phone_number: string | null
  channel: string
  delivered: boolean
  delivered_at: Date | null
  exported: boolean
  exported_at: Date | null
  delivery_status: string
  delivery_vendor: string | null
  delivery_reference: string | null
  delivery_attempts: number
  delivery_error: string | null
  simulated: boolean
  created_at: Date
  updated_at: Date
  shop_id: number | null
  shop_slug: string | null
  shop_name: string | null
  shop_margin_pesewas: number | string | null
}

/** An order as the admin API speaks it (spec section 3: amount in GHS, user with optional agent). */
export function presentOrder(r: OrderRow) {
  const agent = r.agent_id ? { id: r.agent_id, name: r.agent_name, phone: r.agent_phone, approved: !!r.agent_approved } : null
  return {
    id: r.id,
    recipientNumber: r.recipient_number,
    network: r.network,
    dataSizeMB: r.data_size_mb,
    packageName: r.package_name,
    amount: toGhs(r.amount_pesewas),
    paymentStatus: r.payment_status,
    paymentTransactionId: r.payment_transaction_id,
    paymentPhoneNumber: r.payment_phone_number,
    channel: r.channel,
    delivered: r.delivered,
    deliveredAt: r.delivered_at,
    exported: r.exported,
    exportedAt: r.exported_at,
    deliveryStatus: r.delivery_status,
    deliveryVendor: r.delivery_vendor,
    deliveryReference: r.delivery_reference,
    deliveryAttempts: r.delivery_attempts,
    deliveryError: r.delivery_error,
    simulated: !!r.simulated,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    orderType: agent ? 'agent' : 'direct',
    user: r.user_id || agent ? { id: r.user_id, email: r.user_email, agent } : null,
    // Sold through an agent's shop (the buyer is the shop's customer; agent stays null).
    shop: r.shop_id ? { id: r.shop_id, slug: r.shop_slug, name: r.shop_name, margin: toGhs(Number(r.shop_margin_pesewas)) } : null
  }
}
export type AdminOrder = ReturnType<typeof presentOrder>

const SELECT_ORDER = `
  SELECT o.id, o.user_id, u.email AS user_email, o.agent_id, a.name AS agent_name, a.phone AS agent_phone, a.approved AS agent_approved,
         o.package_name, o.recipient_number, o.network, o.data_size_mb, o.amount_pesewas, o.payment_status,
         o.payment_transaction_id, o.payment_phone_number, o.channel, o.delivered, o.delivered_at, o.exported, o.exported_at,
         o.delivery_status, o.delivery_vendor, o.delivery_reference, o.delivery_attempts, o.delivery_error, o.simulated, o.created_at, o.updated_at,
         o.shop_id, sh.slug AS shop_slug, sh.name AS shop_name, o.shop_margin_pesewas
  FROM orders_view o
  LEFT JOIN agents a ON a.id = o.agent_id
  LEFT JOIN users u ON u.id = o.user_id
  LEFT JOIN shops sh ON sh.id = o.shop_id`

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
  { header: 'Created At (UTC)', kind: 'raw', sql: `to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')` },
  { header: 'Exported At (UTC)', kind: 'raw', sql: exportedAt },
  // Simulator sales: no real money moved, so nobody should deliver them by hand.
  { header: 'Simulated Payment', kind: 'raw', sql: `CASE WHEN o.simulated THEN 'YES - do not deliver' ELSE 'no' END` }
]

type OrdersAdminService = ReturnType<typeof createOrdersAdminService>

export function createOrdersAdminService({
  sequelize,
  audit,
  delivery,
  events
}: {
  sequelize: Sequelize
  audit: AuditService
  delivery: Pick<DeliveryService, 'markManual' | 'retry'>
  /** The export makes its orders MANUAL in bulk, past `delivery.changed`: it publishes `orders.exported` with the stamp naming its rows. */
  events: Pick<Events, 'publish'>
}) {
  /** Agents whose name or phone holds the term: a few ids, so the orders side can use its agent index. */
  async function agentIdsMatching(term: string, digits: string | null): Promise<number[]> {
    const rows = await sequelize.query<{ id: number }>(
      digits
        ? `SELECT id FROM agents WHERE phone LIKE ANY(ARRAY[:likes]) OR name ILIKE :like LIMIT 1001`
        : `SELECT id FROM agents WHERE name ILIKE :like LIMIT 1001`,
      { replacements: { like: likePattern(term), likes: digits ? phoneLikes(digits) : [''] }, type: QueryTypes.SELECT }
    )
    return rows.map((r) => r.id)
  }

  /**
   * Spec: the search covers recipient number, network, data size, agent name, agent phone, payment
   * status and transaction id. Arms that cannot match the term are left out, so each remaining arm
   * can use an index (trigram for substrings, b-tree for the rest).
   */
  async function searchClause(raw: string, params: Record<string, unknown>): Promise<string> {
    const term = raw.trim()
    const arms: string[] = []
    const compact = term.replace(/[\s-]/g, '')
    const digits = /^\d+$/.test(compact) ? compact : null
    params.searchLike = likePattern(term)
    if (digits) {
      params.phoneLikes = phoneLikes(digits)
      arms.push('o.recipient_number LIKE ANY(ARRAY[:phoneLikes])')
      params.searchLike = likePattern(digits)
      if (digits.length <= 6) {
        const n = Number(digits)
        params.sizes = [n, n * 1024]
        arms.push('o.data_size_mb IN (:sizes)')
      }
    }
    arms.push('o.payment_transaction_id ILIKE :searchLike')
    const size = /^(\d+(?:\.\d+)?)\s*(gb|mb)$/i.exec(term)
    if (size) {
      params.sizeMb = Math.round(Number(size[1]) * (size[2]!.toLowerCase() === 'gb' ? 1024 : 1))
      arms.push('o.data_size_mb = :sizeMb')
    }
    if (!digits) {
      const up = term.toUpperCase()
      const networks = Object.entries(NETWORK_LABEL)
        .filter(([k, label]) => k.includes(up) || label.toUpperCase().includes(up))
        .map(([k]) => k)
      if (networks.length) {
        params.searchNetworks = networks
        arms.push('o.network IN (:searchNetworks)')
      }
      const statuses = PAYMENT_STATUSES.filter((s) => s.includes(up.replace(/\s+/g, '_')) || s.replace('_', ' ').includes(up))
      if (statuses.length) {
        params.searchStatuses = statuses
        arms.push('o.payment_status IN (:searchStatuses)')
      }
    }
    const agentIds = await agentIdsMatching(term, digits)
    if (agentIds.length) {
      params.searchAgents = agentIds
      arms.push('o.agent_id IN (:searchAgents)')
    }
    return `(${arms.join(' OR ')})`
  }

  return {
    listQuerySchema,

    async list(input: Record<string, unknown>, _ctx: Ctx = {}) {
      const { value: q, error } = listQuerySchema.validate(input, { convert: true })
      if (error) throw badRequest(error.message)
      const query = q as OrderListQuery
      const params: Record<string, unknown> = {}
      const where = [query.includeExported ? 'o.exported' : 'NOT o.exported']
      if (query.network && query.network !== 'ALL') {
        params.network = query.network
        where.push('o.network = :network')
      }
      if (query.paymentStatus && query.paymentStatus !== 'ALL') {
        params.paymentStatus = query.paymentStatus
        where.push('o.payment_status = :paymentStatus')
      }
      if (query.deliveryStatus && query.deliveryStatus !== 'ALL') {
        params.deliveryStatus = query.deliveryStatus
        where.push('o.delivery_status = :deliveryStatus')
        // The view's delivery_status is an expression (MANUAL once exported): for the few orders that
        // need a look, let the partial index orders_delivery_open_idx (migration 100) find them.
        if (['QUEUED', 'PROCESSING', 'FAILED'].includes(query.deliveryStatus))
          where.push('o.id IN (SELECT id FROM orders WHERE delivery_status = :deliveryStatus)')
      }
      if (query.batchId) {
        params.batchId = query.batchId
        where.push('o.batch_id = :batchId')
      }
      if (query.orderType === 'agent') where.push('o.agent_id IS NOT NULL')
      if (query.orderType === 'direct') where.push('o.agent_id IS NULL')
      if (query.search) where.push(await searchClause(query.search, params))
      // Newest first: the active list walks orders_created_idx (skipping exported orders through
      // order_exports' key), the history walks order_exports_at_idx, latest export first (ADR 0021).
      const order = query.includeExported ? 'o.exported_at DESC, o.id DESC' : 'o.created_at DESC, o.id DESC'
      const whereSql = where.join(' AND ')
      // The page and its total are independent: two connections, one round trip of latency.
      const [rows, counted] = await Promise.all([
        sequelize.query<OrderRow>(`${SELECT_ORDER} WHERE ${whereSql} ORDER BY ${order} LIMIT :limit OFFSET :offset`, {
          replacements: { ...params, limit: query.limit, offset: (query.page - 1) * query.limit },
          type: QueryTypes.SELECT
        }),
        cappedCount(sequelize, `FROM orders_view o WHERE ${whereSql}`, params)
      ])
      return { orders: rows.map(presentOrder), pagination: paginationOf(query.page, query.limit, counted.total, counted.exact) }
    },

    /** One way: a paid order is marked delivered (again is a no-op); unpaid ones never are. */
    async markDelivered(id: number, ctx: Ctx = {}) {
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw badRequest('Invalid order id')
      const [row] = await sequelize.query<{ payment_status: string; delivered: boolean }>('SELECT payment_status, delivered FROM orders_view WHERE id = :id', {
        replacements: { id },
        type: QueryTypes.SELECT
      })
      if (!row) throw notFound('Order not found')
      if (row.payment_status !== 'SUCCESS') throw conflict('Only paid orders can be marked delivered')
      // MANUAL through the one status function (its audit entry is ORDER_DELIVERED).
      if (!row.delivered) await delivery.markManual(id, ctx)
      const [fresh] = await sequelize.query<OrderRow>(`${SELECT_ORDER} WHERE o.id = :id`, { replacements: { id }, type: QueryTypes.SELECT })
      return presentOrder(fresh!)
    },

    /** 'Retry delivery': back to the vendor (FAILED, or never sent in manual mode). */
    async retryDelivery(id: number, ctx: Ctx = {}) {
      if (!Number.isInteger(id) || id < 1 || id > 2_147_483_647) throw badRequest('Invalid order id')
      await delivery.retry(id, ctx)
      const [fresh] = await sequelize.query<OrderRow>(`${SELECT_ORDER} WHERE o.id = :id`, { replacements: { id }, type: QueryTypes.SELECT })
      return presentOrder(fresh!)
    },

    /**
     * The paid, undelivered, active orders, recorded as exported and streamed out as CSV in ONE
     * transaction and one statement (ADR 0021, 0023): one narrow order_exports row per order (the
     * orders rows are not written), oldest first (by id), the CSV made by PostgreSQL's COPY. If
     * anything fails before COMMIT, including the receiver going away, the transaction rolls back
     * and no order is exported.
     */
    async exportPending(sink: ExportSink, ctx: Ctx = {}): Promise<number> {
      return sequelize.transaction(async (t) => {
        await sequelize.query('SELECT pg_advisory_xact_lock(:k)', { replacements: { k: EXPORT_LOCK }, transaction: t })
        // To the microsecond: it names this export's rows (the shop margins below read them by it).
        const [{ stamp, shown }] = (await sequelize.query<{ stamp: string; shown: string }>(
          `SELECT s::text AS stamp, to_char(s AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS shown FROM clock_timestamp() s`,
          { type: QueryTypes.SELECT, transaction: t }
        )) as [{ stamp: string; shown: string }]
        const csv = copyCsv(exportColumns(sequelize.escape(shown)))
        const count = await copyExport(t, csv, `FROM orders o LEFT JOIN agents a ON a.id = o.agent_id WHERE ${EXPORTABLE}`, sequelize.escape(stamp), sink)
        if (count === 0) throw notFound('No orders available for export')
        // Its subscribers (the margins of the shop orders it delivers, ADR 0020 '## Shops') act in its transaction.
        await events.publish('orders.exported', { stamp }, { ...ctx, transaction: t })
        await audit.record({ action: 'ORDERS_EXPORTED', resource: 'ORDER', severity: 'MEDIUM', details: { count } }, { ...ctx, transaction: t })
        return count
      })
    }
  }
}
