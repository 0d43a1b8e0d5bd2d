import { toGhs } from '../../lib/money.ts'
import type { ReportQueries } from './queries.ts'

export interface CheckerSale {
  productId: number
  product: string
  cards: number
  /** GHS: each card at the unit price its buyer paid (a card the stock could not supply was refunded, so it is not here). */
  revenue: number
}

/** Result-checker cards sold since `since`, per product, as the overview presents them. */
export async function checkerSalesSince(queries: ReportQueries, since: Date): Promise<CheckerSale[]> {
  const rows = await queries.checkerSalesSince(since)
  return rows.map((r) => ({ productId: r.productId, product: r.product, cards: r.cards, revenue: toGhs(r.revenuePesewas) }))
}
