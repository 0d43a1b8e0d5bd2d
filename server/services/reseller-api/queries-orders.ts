import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'

// The API's order as read from orders_view, in camelCase: what the API's answers and its webhooks present.

export interface ApiOrderRow {
  id: number
  agentId: number | null
  network: string
  dataSizeMb: number
  packageId: number | null
  recipientNumber: string
  amountPesewas: number
  paymentStatus: string
  paymentTransactionId: string | null
  deliveryStatus: string | null
  delivered: boolean
  channel: string
  createdAt: Date
  updatedAt: Date
}

/** An orders_view row (read here, or by the orders service in a wallet order's transaction) as the API's row. */
export const toApiOrderRow = (r: Record<string, any>): ApiOrderRow => ({
  id: r.id,
  agentId: r.agent_id ?? null,
  network: r.network,
  dataSizeMb: r.data_size_mb,
  packageId: r.package_id ?? null,
  recipientNumber: r.recipient_number,
  amountPesewas: r.amount_pesewas,
  paymentStatus: r.payment_status,
  paymentTransactionId: r.payment_transaction_id ?? null,
  deliveryStatus: r.delivery_status ?? null,
  delivered: !!r.delivered,
  channel: r.channel,
  createdAt: r.created_at,
  updatedAt: r.updated_at
})

export function createApiOrderQueries(sequelize: Sequelize) {
  return {
    /** The agent's order, or null for a missing one and for another agent's. */
    async agentOrder(agentId: number, id: number, transaction?: Transaction): Promise<ApiOrderRow | null> {
      const [row] = await sequelize.query<Record<string, any>>('SELECT * FROM orders_view WHERE id = :id AND agent_id = :agentId', {
        replacements: { id, agentId },
        type: QueryTypes.SELECT,
        transaction
      })
      return row ? toApiOrderRow(row) : null
    }
  }
}
