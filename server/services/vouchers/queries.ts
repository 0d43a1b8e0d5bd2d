import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'

// The statements of products, stock and allocation, and the typed camelCase rows they return: from
// here on nothing in vouchers reads a snake_case column or a count as a string (the purchases' and the
// admins' statements are in queries-handover.ts).

export interface ProductRow {
  id: number
  name: string
  howToUse: string
  checkingUrl: string
  priceUserPesewas: number
  priceAgentPesewas: number | null
  shopCeilingPesewas: number | null
  active: boolean
  lowStockThreshold: number
  lowStockAlertedAt: Date | null
}

export interface StockCounts {
  available: number
  sold: number
  expired: number
  voided: number
}

/** A product's fields as they are written, prices in pesewas (what the admin's `ProductInput` comes to). */
export type ProductWrite = {
  priceUser: number
  priceAgent: number | null
  shopCeiling: number | null
  name: string
  howToUse: string
  checkingUrl: string
  active: boolean
  threshold: number
}

/** A card as it leaves the database: its PIN still sealed. */
export interface SealedCard {
  id: number
  serial: string
  pinSealed: string
  expiresOn: string | null
}

export const AVAILABLE_SQL = `status = 'AVAILABLE' AND (expires_on IS NULL OR expires_on >= current_date)`

type Raw = Record<string, any>
const numOrNull = (v: unknown) => (v == null ? null : Number(v))

export const toProduct = (r: Raw): ProductRow => ({
  id: Number(r.id),
  name: r.name,
  howToUse: r.how_to_use,
  checkingUrl: r.checking_url,
  priceUserPesewas: Number(r.price_user_pesewas),
  priceAgentPesewas: numOrNull(r.price_agent_pesewas),
  shopCeilingPesewas: numOrNull(r.shop_ceiling_pesewas),
  active: r.active,
  lowStockThreshold: Number(r.low_stock_threshold),
  lowStockAlertedAt: r.low_stock_alerted_at
})

export const toSealedCard = (r: Raw): SealedCard => ({ id: Number(r.id), serial: r.serial, pinSealed: r.pin_sealed, expiresOn: r.expires_on })

export function createVoucherQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    async countsOf(ids: number[]): Promise<Map<number, StockCounts>> {
      const rows = await sequelize.query<Raw>(
        `SELECT product_id,
              count(*) FILTER (WHERE ${AVAILABLE_SQL}) AS available,
              count(*) FILTER (WHERE status = 'SOLD') AS sold,
              count(*) FILTER (WHERE status = 'AVAILABLE' AND expires_on < current_date) AS expired,
              count(*) FILTER (WHERE status = 'VOID') AS voided
         FROM voucher_cards WHERE product_id = ANY($1::int[]) GROUP BY product_id`,
        { bind: [ids], type: QueryTypes.SELECT }
      )
      return new Map(
        rows.map((r) => [Number(r.product_id), { available: Number(r.available), sold: Number(r.sold), expired: Number(r.expired), voided: Number(r.voided) }])
      )
    },

    async activeProducts(): Promise<ProductRow[]> {
      return (await q('SELECT * FROM voucher_products WHERE active ORDER BY name', {})).map(toProduct)
    },

    async allProducts(): Promise<ProductRow[]> {
      return (await q('SELECT * FROM voucher_products ORDER BY name', {})).map(toProduct)
    },

    async product(id: number, t?: Transaction): Promise<ProductRow | null> {
      const [row] = await q('SELECT * FROM voucher_products WHERE id = :id', { id }, t)
      return row ? toProduct(row) : null
    },

    /** A new product (id null) or the edited one; null when there is no product with this id. */
    async saveProduct(id: number | null, v: ProductWrite): Promise<ProductRow | null> {
      const [row] = await q(
        id === null
          ? `INSERT INTO voucher_products (name, how_to_use, checking_url, price_user_pesewas, price_agent_pesewas, shop_ceiling_pesewas, active, low_stock_threshold)
             VALUES (:name, :howToUse, :checkingUrl, :priceUser, :priceAgent, :shopCeiling, :active, :threshold) RETURNING *`
          : `UPDATE voucher_products SET name = :name, how_to_use = :howToUse, checking_url = :checkingUrl, price_user_pesewas = :priceUser,
               price_agent_pesewas = :priceAgent, shop_ceiling_pesewas = :shopCeiling, active = :active, low_stock_threshold = :threshold, updated_at = now()
             WHERE id = :id RETURNING *`,
        { ...v, id }
      )
      return row ? toProduct(row) : null
    },

    /** Holds the product's row until `t` ends (uploads and low-stock alerts wait on each other here). */
    async lockProduct(id: number, t: Transaction): Promise<void> {
      await q('SELECT id FROM voucher_products WHERE id = :id FOR UPDATE', { id }, t)
    },

    async availableCount(productId: number, t: Transaction): Promise<number> {
      const [c] = await q(`SELECT count(*) AS n FROM voucher_cards WHERE product_id = :pid AND ${AVAILABLE_SQL}`, { pid: productId }, t)
      return Number(c?.n ?? 0)
    },

    /** Whether this call marked the product alerted (exactly one of several concurrent ones does). */
    async markLowStockAlerted(id: number, t: Transaction): Promise<boolean> {
      const [won] = await q('UPDATE voucher_products SET low_stock_alerted_at = now() WHERE id = :id AND low_stock_alerted_at IS NULL RETURNING id', { id }, t)
      return !!won
    },

    async clearLowStockAlert(id: number, t: Transaction): Promise<void> {
      await q('UPDATE voucher_products SET low_stock_alerted_at = NULL WHERE id = :id RETURNING id', { id }, t)
    },

    async admins(t: Transaction): Promise<{ id: number; phone: string | null }[]> {
      const rows = await q(`SELECT id, phone FROM users WHERE role = 'ADMIN'`, {}, t)
      return rows.map((r) => ({ id: Number(r.id), phone: r.phone }))
    },

    /** One HIGH message in the inbox of each user given. */
    async tellUsers(userIds: number[], title: string, text: string, t: Transaction): Promise<void> {
      const [msg] = await q(`INSERT INTO admin_messages (title, message, priority) VALUES (:title, :text, 'HIGH') RETURNING id`, { title, text }, t)
      await sequelize.query('INSERT INTO admin_message_recipients (message_id, user_id) SELECT $1, unnest($2::int[])', {
        bind: [msg!.id, userIds],
        transaction: t
      })
    },

    /** Marks up to `n` available cards sold to the payment, skipping cards other settlements hold. */
    async takeCards(productId: number, n: number, transactionId: string, t: Transaction): Promise<SealedCard[]> {
      const rows = await q(
        // Picked once in a MATERIALIZED CTE: as an `IN (subquery)` the planner may run the LIMIT ... SKIP LOCKED pick
        // more than once in one UPDATE, handing one payment more than `n` cards while two settlements race.
        `WITH picked AS MATERIALIZED (SELECT id FROM voucher_cards WHERE product_id = :pid AND ${AVAILABLE_SQL} ORDER BY id LIMIT :n FOR UPDATE SKIP LOCKED)
        UPDATE voucher_cards c SET status = 'SOLD', payment_transaction_id = :tid, sold_at = now()
        FROM picked WHERE c.id = picked.id AND c.status = 'AVAILABLE'
        RETURNING c.id, c.serial, c.pin_sealed, to_char(c.expires_on, 'YYYY-MM-DD') AS expires_on`,
        { tid: transactionId, pid: productId, n },
        t
      )
      return rows.map(toSealedCard)
    },

    async agentPhone(agentId: number, t?: Transaction): Promise<string | null> {
      const [row] = await q('SELECT phone FROM agents WHERE id = :id', { id: agentId }, t)
      return row?.phone ?? null
    },

    /** Which of these serials the product has in stock already. */
    async serialsInStock(productId: number, serials: string[], t: Transaction): Promise<string[]> {
      const rows = await sequelize.query<Raw>('SELECT serial FROM voucher_cards WHERE product_id = $1 AND serial = ANY($2::text[])', {
        bind: [productId, serials],
        type: QueryTypes.SELECT,
        transaction: t
      })
      return rows.map((r) => r.serial)
    },

    async insertCards(
      productId: number,
      uploadedBy: number | null,
      cards: { serial: string; pinSealed: string; expiresOn: string | null }[],
      t: Transaction
    ): Promise<void> {
      await sequelize.query(
        `INSERT INTO voucher_cards (product_id, serial, pin_sealed, expires_on, uploaded_by)
         SELECT $1::int, s, p, e::date, $2::int FROM unnest($3::text[], $4::text[], $5::text[]) AS u(s, p, e)`,
        {
          bind: [productId, uploadedBy, cards.map((c) => c.serial), cards.map((c) => c.pinSealed), cards.map((c) => c.expiresOn)],
          transaction: t
        }
      )
    },

    /** Whether any card was ever stocked. */
    async anyCard(): Promise<boolean> {
      const [rows] = await sequelize.query('SELECT 1 FROM voucher_cards LIMIT 1')
      return (rows as unknown[]).length > 0
    }
  }
}
