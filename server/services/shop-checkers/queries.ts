import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'

// Every statement of the shop checkers, and the typed camelCase rows they return: from here on
// nothing in shop-checkers reads a snake_case column or an amount as a string.

/** A shop's checker sale as settlement fixed it: the cards allocated and what they came to (pesewas). */
export interface CheckerSale {
  transactionId: string
  shopId: number
  agentId: number
  productId: number
  cards: number
  pricePesewas: number
  agentPricePesewas: number
  amountPesewas: number
  marginPesewas: number
}

type Raw = Record<string, any>

export function createShopCheckerQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    /** The shop's price per listed product (pesewas). */
    async savedPrices(shopId: number): Promise<Map<number, number>> {
      const rows = await q('SELECT product_id, price_pesewas FROM shop_checker_prices WHERE shop_id = :shopId', { shopId })
      return new Map(rows.map((r) => [Number(r.product_id), Number(r.price_pesewas)]))
    },

    async deletePrice(shopId: number, productId: number, t: Transaction): Promise<void> {
      await q('DELETE FROM shop_checker_prices WHERE shop_id = :shopId AND product_id = :pid RETURNING 1', { shopId, pid: productId }, t)
    },

    async upsertPrice(shopId: number, productId: number, pricePesewas: number, t: Transaction): Promise<void> {
      await q(
        `INSERT INTO shop_checker_prices (shop_id, product_id, price_pesewas) VALUES (:shopId, :pid, :price)
               ON CONFLICT (shop_id, product_id) DO UPDATE SET price_pesewas = EXCLUDED.price_pesewas, updated_at = now() RETURNING 1`,
        { shopId, pid: productId, price: pricePesewas },
        t
      )
    },

    /** Records the sale once; false when the payment's sale was recorded already. */
    async recordSale(s: CheckerSale, t: Transaction): Promise<boolean> {
      const [recorded] = await q(
        `INSERT INTO shop_checker_sales (payment_transaction_id, shop_id, agent_id, product_id, cards, price_pesewas, agent_price_pesewas, amount_pesewas, margin_pesewas)
         VALUES (:tid, :shopId, :agentId, :productId, :cards, :price, :agentPrice, :amount, :margin)
         ON CONFLICT (payment_transaction_id) DO NOTHING RETURNING payment_transaction_id`,
        {
          tid: s.transactionId,
          shopId: s.shopId,
          agentId: s.agentId,
          productId: s.productId,
          cards: s.cards,
          price: s.pricePesewas,
          agentPrice: s.agentPricePesewas,
          amount: s.amountPesewas,
          margin: s.marginPesewas
        },
        t
      )
      return !!recorded
    },

    /** The shop margin credited on a checker payment: to whom and how much (pesewas); null when none was. */
    async creditedMargin(transactionId: string, t: Transaction): Promise<{ agentId: number; amountPesewas: number } | null> {
      const [row] = await q(
        `SELECT agent_id, amount_pesewas FROM earnings_entries WHERE payment_transaction_id = :tid AND type = 'MARGIN'`,
        { tid: transactionId },
        t
      )
      return row ? { agentId: Number(row.agent_id), amountPesewas: Number(row.amount_pesewas) } : null
    }
  }
}
