import { QueryTypes, type Sequelize } from 'sequelize'

// Every statement of the reports (each one an aggregate), and the typed camelCase rows they return.

/** Orders of one UTC day, payment status, network and channel: their count and amount. */
export interface DayFigures {
  day: string
  status: string
  network: string
  channel: string
  count: number
  amountPesewas: number
}

export interface AllTimeTotals {
  users: number
  agents: number
  orders: number
  /** Registration fees actually received. */
  agentRevenuePesewas: number
}

export interface CheckerSaleRow {
  productId: number
  product: string
  cards: number
  revenuePesewas: number
}

export interface TrustCounts {
  customers: number
  delivered: number
  failed: number
}

export function createReportQueries(sequelize: Sequelize) {
  const grouped = async (where: string, replacements: Record<string, unknown>): Promise<DayFigures[]> =>
    (
      await sequelize.query<{ day: string; status: string; network: string; channel: string; n: string; amount: string }>(
        `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, payment_status AS status, network, channel,
              count(*) AS n, COALESCE(sum(amount_pesewas), 0) AS amount
       FROM orders WHERE ${where} GROUP BY 1, 2, 3, 4`,
        { replacements, type: QueryTypes.SELECT }
      )
    ).map((r) => ({ day: r.day, status: r.status, network: r.network, channel: r.channel, count: Number(r.n), amountPesewas: Number(r.amount) }))

  return {
    dayFiguresBetween: (since: Date, until: Date) => grouped('created_at >= :since AND created_at < :until', { since, until }),
    dayFiguresSince: (liveFrom: Date) => grouped('created_at >= :liveFrom', { liveFrom }),

    allTimeTotals: async (): Promise<AllTimeTotals> => {
      const [r] = await sequelize.query<{ users: string; agents: string; orders: string; agent_revenue: string }>(
        `SELECT (SELECT count(*) FROM users) AS users,
                (SELECT count(*) FROM agents) AS agents,
                (SELECT count(*) FROM orders) AS orders,
                -- Registration fees actually received: the settled payment behind each paid agent.
                (SELECT COALESCE(sum(p.amount_pesewas), 0) FROM agents a JOIN payments p ON p.transaction_id = a.payment_transaction_id
                  WHERE a.payment_status = 'SUCCESS' AND p.status = 'SUCCESS') AS agent_revenue`,
        { type: QueryTypes.SELECT }
      )
      return { users: Number(r!.users), agents: Number(r!.agents), orders: Number(r!.orders), agentRevenuePesewas: Number(r!.agent_revenue) }
    },

    /** Agents per registration payment status (null: never started paying). */
    agentsByPaymentStatus: async (): Promise<{ status: string | null; count: number }[]> =>
      (
        await sequelize.query<{ status: string | null; n: string }>('SELECT payment_status AS status, count(*) AS n FROM agents GROUP BY 1', {
          type: QueryTypes.SELECT
        })
      ).map((r) => ({ status: r.status, count: Number(r.n) })),

    /**
     * Result-checker cards sold since `since`, per product. The card is the sale (a purchase's shortfall
     * never became a card), and its price is the unit price stored on the payment that bought it.
     */
    checkerSalesSince: async (since: Date): Promise<CheckerSaleRow[]> =>
      (
        await sequelize.query<{ product_id: number; name: string; cards: string; revenue: string }>(
          `SELECT c.product_id, vp.name, count(*) AS cards, COALESCE(sum((p.details->'vouchers'->>'unitPesewas')::int), 0) AS revenue
       FROM voucher_cards c JOIN payments p ON p.transaction_id = c.payment_transaction_id JOIN voucher_products vp ON vp.id = c.product_id
      WHERE c.status = 'SOLD' AND c.sold_at >= :since
      GROUP BY c.product_id, vp.name ORDER BY vp.name`,
          { replacements: { since }, type: QueryTypes.SELECT }
        )
      ).map((r) => ({ productId: Number(r.product_id), product: r.name, cards: Number(r.cards), revenuePesewas: Number(r.revenue) })),

    /** The home page's counts over paid orders: distinct paying numbers, finished deliveries by outcome. */
    trustCounts: async (): Promise<TrustCounts> => {
      const [row] = await sequelize.query<{ customers: string; delivered: string; failed: string }>(
        `SELECT count(DISTINCT COALESCE(payment_phone_number, recipient_number)) FILTER (WHERE payment_status = 'SUCCESS') AS customers,
              count(*) FILTER (WHERE payment_status = 'SUCCESS' AND delivery_status IN ('DELIVERED', 'MANUAL')) AS delivered,
              count(*) FILTER (WHERE payment_status = 'SUCCESS' AND delivery_status = 'FAILED') AS failed
         FROM orders_view`,
        { type: QueryTypes.SELECT }
      )
      return { customers: Number(row?.customers ?? 0), delivered: Number(row?.delivered ?? 0), failed: Number(row?.failed ?? 0) }
    }
  }
}

export type ReportQueries = ReturnType<typeof createReportQueries>
