import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Models, OrderRow, OrderViewRow } from '../../../models/index.ts'
import { preparedFor } from '../../../models/prepared.ts'
import { SETTINGS_VERSION_SQL } from '../settings/index.ts'

// The statements of placing an order and of what follows it (payment, lookup, Complete Order): rows
// come back camelCase, as a model's would; nothing else in orders reads a snake_case column.

const INSERT_ORDER = `INSERT INTO orders (user_id, agent_id, shop_id, shop_agent_id, shop_price_pesewas, shop_agent_price_pesewas, shop_margin_pesewas,
    package_id, package_name, recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id,
    payment_phone_number, channel, simulated, parent_agent_id, parent_price_pesewas, parent_margin_pesewas)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'PENDING', $14, $15, $16, $17, $18, $19, $20)
  RETURNING *, ${SETTINGS_VERSION_SQL} AS settings_version`

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

    /** The PENDING order (a named statement, no model instance: ADR 0024) and the settings' version as saved when it was written. */
    async insert(o: NewOrder, transaction: Transaction): Promise<{ order: OrderRow; settingsVersion: string | null }> {
      const [row] = await run(
        INSERT_ORDER,
        [
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
        ],
        transaction
      )
      const { settings_version: settingsVersion, ...written } = row
      return { order: camelKeys(written), settingsVersion }
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
