import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { PaymentRow } from '../payments/provider.ts'
import { type SealedCard, toSealedCard } from './queries.ts'

// The statements of purchases (their payment, their cards) and of the admins' sold list and voiding,
// with the typed camelCase rows they return. A purchase's payment stays payments' own `PaymentRow`.

/** A sold card with who bought it, for the admins' list. */
export interface SoldCard {
  id: number
  serial: string
  pinSealed: string
  soldAt: Date
  product: string
  transactionId: string
  payerPhone: string | null
  agentName: string | null
  agentPhone: string | null
  gateway: string
}

/** An unsold card (available, expired or void) as the admins' stock list shows it. */
export interface StockCard {
  id: number
  serial: string
  status: string
  expiresOn: string | null
}

/** A wallet purchase's payment row, written in its transaction. */
export interface WalletPayment {
  tid: string
  amount: number
  email: string | null
  agentId: number
  userId: number | null
  details: string
  simulated: boolean
}

type Raw = Record<string, any>

export function createHandoverQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown> = {}, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    async cardsOf(transactionId: string): Promise<Omit<SealedCard, 'id'>[]> {
      const rows = await q(
        `SELECT serial, pin_sealed, to_char(expires_on, 'YYYY-MM-DD') AS expires_on FROM voucher_cards WHERE payment_transaction_id = :tid ORDER BY id`,
        { tid: transactionId }
      )
      return rows.map(({ serial, pin_sealed, expires_on }) => ({ serial, pinSealed: pin_sealed, expiresOn: expires_on }))
    },

    /** The voucher purchases a browser started or a user made, newest first. */
    async purchasesOf(started: string[], userId: number | null): Promise<PaymentRow[]> {
      return sequelize.query<PaymentRow>(
        `SELECT * FROM payments WHERE purpose = 'voucher' AND (transaction_id = ANY($1::text[]) OR ($2::int IS NOT NULL AND user_id = $2::int))
       ORDER BY created_at DESC LIMIT 50`,
        { bind: [started, userId], type: QueryTypes.SELECT }
      )
    },

    async payment(transactionId: string): Promise<PaymentRow | null> {
      const [p] = await q<PaymentRow>(`SELECT * FROM payments WHERE transaction_id = :tid`, { tid: transactionId })
      return p ?? null
    },

    async insertWalletPayment(v: WalletPayment, t: Transaction): Promise<void> {
      await q(
        `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, email, agent_id, user_id, details, last_checked_at, simulated)
         VALUES (:tid, 'voucher', 'wallet', 'wallet', 'PENDING', :amount, :email, :agentId, :userId, CAST(:details AS jsonb), now(), :simulated) RETURNING id`,
        { ...v },
        t
      )
    },

    /** A page of sold cards (of one product, or all), newest first, and how many there are in all. */
    async sold(pid: number | null, limit: number, offset: number): Promise<{ cards: SoldCard[]; total: number }> {
      const rows = await q(
        `SELECT c.id, c.serial, c.pin_sealed, c.sold_at, vp.name AS product, p.transaction_id, p.payer_phone, p.gateway, a.name AS agent_name, a.phone AS agent_phone
           FROM voucher_cards c JOIN voucher_products vp ON vp.id = c.product_id JOIN payments p ON p.transaction_id = c.payment_transaction_id
           LEFT JOIN agents a ON a.id = p.agent_id
          WHERE c.status = 'SOLD' AND (CAST(:pid AS int) IS NULL OR c.product_id = :pid)
          ORDER BY c.sold_at DESC, c.id DESC LIMIT :limit OFFSET :offset`,
        { pid, limit, offset }
      )
      const [count] = await q(`SELECT count(*) AS n FROM voucher_cards WHERE status = 'SOLD' AND (CAST(:pid AS int) IS NULL OR product_id = :pid)`, { pid })
      return {
        cards: rows.map((r) => ({
          id: Number(r.id),
          serial: r.serial,
          pinSealed: r.pin_sealed,
          soldAt: r.sold_at,
          product: r.product,
          transactionId: r.transaction_id,
          payerPhone: r.payer_phone,
          agentName: r.agent_name,
          agentPhone: r.agent_phone,
          gateway: r.gateway
        })),
        total: Number(count?.n ?? 0)
      }
    },

    /** Voids the card when it is still available; null when it is not (sold, void or unknown). */
    async voidAvailable(id: number, reason: string, t: Transaction): Promise<{ id: number; serial: string; productId: number } | null> {
      const [card] = await q(
        `UPDATE voucher_cards SET status = 'VOID', voided_at = now(), void_reason = :reason WHERE id = :id AND status = 'AVAILABLE' RETURNING id, serial, product_id`,
        { id, reason },
        t
      )
      return card ? { id: Number(card.id), serial: card.serial, productId: Number(card.product_id) } : null
    },

    async cardStatus(id: number, t: Transaction): Promise<string | null> {
      const [row] = await q('SELECT status FROM voucher_cards WHERE id = :id', { id }, t)
      return row?.status ?? null
    },

    /** Up to 50 unsold cards of a product, newest first, whose serial contains `s` (all when empty). */
    async unsold(pid: number, s: string): Promise<StockCard[]> {
      const rows = await q(
        `SELECT id, serial, status, to_char(expires_on, 'YYYY-MM-DD') AS expires_on FROM voucher_cards WHERE product_id = :pid AND status <> 'SOLD' AND (:s = '' OR serial ILIKE :like) ORDER BY id DESC LIMIT 50`,
        { pid, s, like: `%${s.replace(/[%_\\]/g, '')}%` }
      )
      return rows.map((r) => ({ id: Number(r.id), serial: r.serial, status: r.status, expiresOn: r.expires_on }))
    }
  }
}
