import { QueryTypes, type Sequelize } from 'sequelize'
import { toGhs } from '../../lib/money.ts'

export interface CheckerSale {
  productId: number
  product: string
  cards: number
  /** GHS: each card at the unit price its buyer paid (a card the stock could not supply was refunded, so it is not here). */
  revenue: number
}

/**
 * Result-checker cards sold since `since`, per product. The card is the sale (a purchase's shortfall
 * never became a card), and its price is the unit price stored on the payment that bought it.
 */
export async function checkerSalesSince(sequelize: Sequelize, since: Date): Promise<CheckerSale[]> {
  const rows = await sequelize.query<{ product_id: number; name: string; cards: string; revenue: string }>(
    `SELECT c.product_id, vp.name, count(*) AS cards, COALESCE(sum((p.details->'vouchers'->>'unitPesewas')::int), 0) AS revenue
       FROM voucher_cards c JOIN payments p ON p.transaction_id = c.payment_transaction_id JOIN voucher_products vp ON vp.id = c.product_id
      WHERE c.status = 'SOLD' AND c.sold_at >= :since
      GROUP BY c.product_id, vp.name ORDER BY vp.name`,
    { replacements: { since }, type: QueryTypes.SELECT }
  )
  return rows.map((r) => ({ productId: Number(r.product_id), product: r.name, cards: Number(r.cards), revenue: toGhs(Number(r.revenue)) }))
}
