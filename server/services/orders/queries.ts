import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Models, OrderRow, OrderViewRow } from '../../../models/index.ts'
import { preparedFor } from '../../../models/prepared.ts'
import { cappedCount, likePattern, phoneLikes } from '../../lib/lists.ts'
import { NETWORK_LABEL } from '../../lib/vocabulary.ts'
import { AUDIT_WRITTEN_VALUES, auditOfWritten } from '../audit/index.ts'
import { paymentOfWritten, type PaymentRow } from '../payments/index.ts'
import { EXPORT_LOCK } from '../delivery/export-lock.ts'
import { SETTINGS_VERSION_SQL } from '../settings/index.ts'
import type { WrittenWithOrder } from './input.ts'

// The statements of placing an order and of what follows it (payment, lookup, Complete Order), and
// the admins' list: rows come back camelCase, as a model's would; nothing else in orders reads a
// snake_case column. (The CSV export's one COPY statement is queries-export.ts's, streamed by exports.ts; its columns admin.ts's.)

/** The columns of a new order with their types, in NewOrder's order (its status is PENDING). */
const ORDER_COLUMNS = [
  ['user_id', 'int'],
  ['agent_id', 'int'],
  ['shop_id', 'int'],
  ['shop_agent_id', 'int'],
  ['shop_price_pesewas', 'int'],
  ['shop_agent_price_pesewas', 'int'],
  ['shop_margin_pesewas', 'int'],
  ['package_id', 'int'],
  ['package_name', 'text'],
  ['recipient_number', 'text'],
  ['network', 'text'],
  ['data_size_mb', 'int'],
  ['amount_pesewas', 'int'],
  ['payment_transaction_id', 'text'],
  ['payment_phone_number', 'text'],
  ['channel', 'text'],
  ['simulated', 'boolean'],
  ['parent_agent_id', 'int'],
  ['parent_price_pesewas', 'int'],
  ['parent_margin_pesewas', 'int']
] as const
/** The audit entry's parameters follow the order's. */
const ENTRY_FIRST = ORDER_COLUMNS.length + 1

/** The PENDING order's INSERT as a CTE `o`, its values typed (an INSERT ... SELECT does not type them by the columns), with `where`. */
const insertOrderAs = (where: string) => `o AS (
  INSERT INTO orders (${ORDER_COLUMNS.map(([c]) => c).join(', ')}, payment_status)
  SELECT ${ORDER_COLUMNS.map(([, type], i) => `$${i + 1}::${type}`).join(', ')}, 'PENDING'${where}
  RETURNING *)`

/**
 * The order and its ORDER_CREATED entry (the audit's statement, parameters from $21) in one round trip,
 * and `also`, a caller's row written over the order (parameters after the entry's), whose count comes back.
 */
const insertOrderWith = (also?: (source: string, first: number) => string) => `WITH ${insertOrderAs('')},
  entry AS (${auditOfWritten('o', ENTRY_FIRST)})${
    also
      ? `,
  also AS (${also('o', ENTRY_FIRST + AUDIT_WRITTEN_VALUES)})`
      : ''
  }
  SELECT o.*, ${SETTINGS_VERSION_SQL} AS settings_version${also ? ', (SELECT count(*) FROM also)::int AS also_written' : ''} FROM o`

/**
 * The order, its ORDER_CREATED entry and its payment (payments' statement, parameters after the
 * entry's) as ONE statement, so one commit without a transaction around it: all three or none. Written
 * only while the settings row is still the version ($28) whose copy let the order in; otherwise
 * nothing is written and no row comes back. The order comes back as JSON beside the payment's row.
 */
const INSERT_ORDER_WITH_PAYMENT = `WITH ${insertOrderAs(` WHERE ${SETTINGS_VERSION_SQL} = $${ENTRY_FIRST + AUDIT_WRITTEN_VALUES}::text`)},
  entry AS (${auditOfWritten('o', ENTRY_FIRST)}),
  p AS (${paymentOfWritten('o', ENTRY_FIRST + AUDIT_WRITTEN_VALUES + 1)})
  SELECT p.*, to_jsonb(o) AS written_order FROM o, p`

/** A row as pg returns it (snake_case columns) with the keys its model would use (camelCase). */
function camelKeys(row: Record<string, unknown>): any {
  const out: Record<string, unknown> = {}
  for (const key in row) out[key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = row[key]
  return out
}

/** The columns of a new order, in INSERT_ORDER's order (its status is PENDING). */
export interface NewOrder {
  userId: number | null
  agentId: number | null
  shopId: number | null
  shopAgentId: number | null
  shopPricePesewas: number | null
  shopAgentPricePesewas: number | null
  shopMarginPesewas: number | null
  packageId: number
  packageName: string
  recipientNumber: string
  network: string
  dataSizeMb: number
  amountPesewas: number
  paymentTransactionId: string
  paymentPhoneNumber: string | null
  channel: string
  simulated: boolean
  parentAgentId: number | null
  parentPricePesewas: number | null
  parentMarginPesewas: number | null
}

/** A new order's parameters, in ORDER_COLUMNS' order. */
const orderValues = (o: NewOrder): unknown[] => [
  o.userId,
  o.agentId,
  o.shopId,
  o.shopAgentId,
  o.shopPricePesewas,
  o.shopAgentPricePesewas,
  o.shopMarginPesewas,
  o.packageId,
  o.packageName,
  o.recipientNumber,
  o.network,
  o.dataSizeMb,
  o.amountPesewas,
  o.paymentTransactionId,
  o.paymentPhoneNumber,
  o.channel,
  o.simulated,
  o.parentAgentId,
  o.parentPricePesewas,
  o.parentMarginPesewas
]

export type OrderQueries = ReturnType<typeof createOrderQueries>

export function createOrderQueries(sequelize: Sequelize, models: Models) {
  const run = preparedFor(sequelize)
  const plain = <T>(row: { get(o: { plain: true }): unknown } | null) => (row ? (row.get({ plain: true }) as T) : null)

  return {
    /** Whether an order or a payment already carries this transaction id (every order placed asks: a named statement, ADR 0024). */
    async transactionIdUsed(tid: string): Promise<boolean> {
      const [used] = await run<{ n: number }>(
        `SELECT 1 AS n FROM orders WHERE payment_transaction_id = $1 UNION ALL SELECT 1 FROM payments WHERE transaction_id = $1 LIMIT 1`,
        [tid]
      )
      return !!used
    },

    /**
     * The PENDING order (a named statement, no model instance: ADR 0024) with its audit entry (`entry`:
     * `audit.ofWritten`'s parameters), and the settings' version as saved when it was written.
     */
    async insert(
      o: NewOrder,
      entry: unknown[],
      transaction: Transaction,
      also?: WrittenWithOrder
    ): Promise<{ order: OrderRow; settingsVersion: string | null; alsoWritten: boolean }> {
      const [row] = await run(insertOrderWith(also?.cte), [...orderValues(o), ...entry, ...(also?.values ?? [])], transaction)
      const { settings_version: settingsVersion, also_written: alsoWritten, ...written } = row
      return { order: camelKeys(written), settingsVersion, alsoWritten: alsoWritten > 0 }
    },

    /**
     * The PENDING order, its audit entry and its payment (`payment`: `payments.withOrder`'s parameters) in one
     * statement, only while the settings row is still `settingsVersion`; undefined when it is not (nothing written).
     */
    async insertWithPayment(
      o: NewOrder,
      entry: unknown[],
      payment: unknown[],
      settingsVersion: string
    ): Promise<{ order: OrderRow; payment: PaymentRow } | undefined> {
      const [row] = await run<PaymentRow & { written_order: Record<string, unknown> }>(INSERT_ORDER_WITH_PAYMENT, [
        ...orderValues(o),
        ...entry,
        settingsVersion,
        ...payment
      ])
      if (!row) return undefined
      const { written_order: order, ...paid } = row
      return { order: camelKeys(order), payment: paid as PaymentRow }
    },

    /** A wallet order's orders_view row as pg returns it (the reseller API presents that row its own way). */
    async viewRowIn(id: number, transaction: Transaction): Promise<Record<string, any> | undefined> {
      const [row] = await run('SELECT * FROM orders_view WHERE id = $1', [id], transaction)
      return row
    },

    byId: async (id: number) => plain<OrderRow>(await models.Order.findByPk(id)),
    viewById: async (id: number) => plain<OrderViewRow>(await models.OrderView.findByPk(id)),
    byTransactionId: async (tid: string) => plain<OrderRow>(await models.Order.findOne({ where: { paymentTransactionId: tid } })),

    /** The phone a payment prompt goes to, kept on the order (nothing written when it is already that one). */
    async setPaymentPhone(order: OrderRow, phone: string): Promise<void> {
      if (order.paymentPhoneNumber === phone) return
      await models.Order.update({ paymentPhoneNumber: phone }, { where: { id: order.id } })
    },

    /**
     * Orders whose recipient is one of these spellings, or a visitor's whose paying phone is; newest first.
     * An agent's orders match only their recipient: the agent's own number must not list every customer
     * the agent bought for.
     */
    async byPhone(variants: string[]): Promise<OrderViewRow[]> {
      const rows = await sequelize.query<Record<string, unknown>>(
        `SELECT * FROM orders_view WHERE recipient_number IN (:v) OR (agent_id IS NULL AND payment_phone_number IN (:v))
         ORDER BY created_at DESC, id DESC LIMIT 100`,
        { replacements: { v: variants }, type: QueryTypes.SELECT }
      )
      return rows.map(camelKeys)
    }
  }
}

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
