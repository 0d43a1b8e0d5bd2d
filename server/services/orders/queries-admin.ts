import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { OrderViewRow } from '../../../models/index.ts'
import { cappedCount, likePattern, phoneLikes } from '../../lib/lists.ts'
import { NETWORK_LABEL } from '../../lib/vocabulary.ts'
import { EXPORT_LOCK } from '../delivery/export-lock.ts'
import { camelKeys } from './queries.ts'

// The admins' list of orders: its search and filters, one order with its buyer, agent and shop, camelCase rows.

export const PAYMENT_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED', 'REFUNDED', 'REVERSED'] as const

/** The admins' list as asked for, checked (orders/admin.ts holds its schema). */
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

/** An order with its buyer, agent and shop, as the admins' table reads it. */
export interface AdminOrderRow
  extends Pick<
    OrderViewRow,
    | 'id'
    | 'userId'
    | 'agentId'
    | 'packageName'
    | 'recipientNumber'
    | 'network'
    | 'dataSizeMb'
    | 'paymentStatus'
    | 'paymentTransactionId'
    | 'paymentPhoneNumber'
    | 'channel'
    | 'delivered'
    | 'deliveredAt'
    | 'exported'
    | 'exportedAt'
    | 'deliveryStatus'
    | 'deliveryVendor'
    | 'deliveryReference'
    | 'deliveryAttempts'
    | 'deliveryError'
    | 'simulated'
    | 'createdAt'
    | 'updatedAt'
    | 'shopId'
  > {
  userEmail: string | null
  agentName: string | null
  agentPhone: string | null
  agentApproved: boolean | null
  amountPesewas: number | null
  shopSlug: string | null
  shopName: string | null
  shopMarginPesewas: number | null
}

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

const toAdminRow = (r: Record<string, unknown>): AdminOrderRow => {
  const row = camelKeys(r)
  // A sum's type: pg hands numerics back as text.
  return { ...row, shopMarginPesewas: row.shopMarginPesewas == null ? null : Number(row.shopMarginPesewas) }
}

/** The admins' statements: the list with its search, one order, the delivered mark's check, the export's lock and stamp. */
export function createAdminOrderQueries(sequelize: Sequelize) {
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
    /** One page of the list and its (capped) total. */
    async listPage(query: OrderListQuery): Promise<{ rows: AdminOrderRow[]; total: number; exact: boolean }> {
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
        sequelize.query<Record<string, unknown>>(`${SELECT_ORDER} WHERE ${whereSql} ORDER BY ${order} LIMIT :limit OFFSET :offset`, {
          replacements: { ...params, limit: query.limit, offset: (query.page - 1) * query.limit },
          type: QueryTypes.SELECT
        }),
        cappedCount(sequelize, `FROM orders_view o WHERE ${whereSql}`, params)
      ])
      return { rows: rows.map(toAdminRow), total: counted.total, exact: counted.exact }
    },

    async adminOrder(id: number): Promise<AdminOrderRow | null> {
      const [row] = await sequelize.query<Record<string, unknown>>(`${SELECT_ORDER} WHERE o.id = :id`, { replacements: { id }, type: QueryTypes.SELECT })
      return row ? toAdminRow(row) : null
    },

    /** What marking an order delivered asks first. */
    async deliveredState(id: number): Promise<{ paymentStatus: string; delivered: boolean } | null> {
      const [row] = await sequelize.query<{ payment_status: string; delivered: boolean }>('SELECT payment_status, delivered FROM orders_view WHERE id = :id', {
        replacements: { id },
        type: QueryTypes.SELECT
      })
      return row ? { paymentStatus: row.payment_status, delivered: row.delivered } : null
    },

    /** One export at a time, against delivery's own exports too (the same key). */
    async lockExports(transaction: Transaction): Promise<void> {
      await sequelize.query('SELECT pg_advisory_xact_lock(:k)', { replacements: { k: EXPORT_LOCK }, transaction })
    },

    /** Now, to the microsecond (`stamp`, which names an export's rows) and as the file shows it (`shown`, UTC). */
    async exportStamp(transaction: Transaction): Promise<{ stamp: string; shown: string }> {
      const [row] = await sequelize.query<{ stamp: string; shown: string }>(
        `SELECT s::text AS stamp, to_char(s AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS') AS shown FROM clock_timestamp() s`,
        { type: QueryTypes.SELECT, transaction }
      )
      return row!
    }
  }
}
