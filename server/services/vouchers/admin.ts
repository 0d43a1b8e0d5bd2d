import { QueryTypes, type Sequelize } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'

/** A PIN as an admin sees it: its last two characters, enough to match a complaint, never enough to use. */
export const maskPin = (pin: string): string => `${'•'.repeat(Math.max(2, pin.length - 2))}${pin.slice(-2)}`

/** A page of sold cards, checked at the edge (routes/vouchers/schema.ts); no product id lists them all. */
export interface SoldListInput {
  productId?: number | '' | null
  page: number
  limit: number
}

export function createVoucherAdmin(deps: { sequelize: Sequelize; audit: AuditService; box: SecretBox }) {
  const { sequelize, audit, box } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

  return {
    /** Sold cards, newest first, with a masked PIN and who bought them. */
    async sold(value: SoldListInput) {
      const pid = value.productId || null
      const rows = await q<{
        id: number
        serial: string
        pin_sealed: string
        sold_at: Date
        product: string
        transaction_id: string
        payer_phone: string | null
        agent_name: string | null
        agent_phone: string | null
        gateway: string
      }>(
        `SELECT c.id, c.serial, c.pin_sealed, c.sold_at, vp.name AS product, p.transaction_id, p.payer_phone, p.gateway, a.name AS agent_name, a.phone AS agent_phone
           FROM voucher_cards c JOIN voucher_products vp ON vp.id = c.product_id JOIN payments p ON p.transaction_id = c.payment_transaction_id
           LEFT JOIN agents a ON a.id = p.agent_id
          WHERE c.status = 'SOLD' AND (CAST(:pid AS int) IS NULL OR c.product_id = :pid)
          ORDER BY c.sold_at DESC, c.id DESC LIMIT :limit OFFSET :offset`,
        { pid, limit: value.limit, offset: (value.page - 1) * value.limit }
      )
      const [count] = await q<{ n: string }>(
        `SELECT count(*) AS n FROM voucher_cards WHERE status = 'SOLD' AND (CAST(:pid AS int) IS NULL OR product_id = :pid)`,
        { pid }
      )
      return {
        cards: rows.map((r) => ({
          id: Number(r.id),
          product: r.product,
          serial: r.serial,
          pin: maskPin(box.open(r.pin_sealed)),
          soldAt: new Date(r.sold_at).toISOString(),
          transactionId: r.transaction_id,
          buyer: r.agent_name ? `${r.agent_name} (agent, ${r.agent_phone})` : (r.payer_phone ?? ''),
          paidBy: r.gateway
        })),
        total: Number(count?.n ?? 0),
        page: value.page,
        limit: value.limit
      }
    },

    /** Takes an unsold card out of stock for good (a card reported used or misprinted). */
    /** The card id and the reason checked at the edge, the id first. */
    async voidCard(n: number, value: { reason: string }, ctx: Ctx): Promise<{ message: string }> {
      return sequelize.transaction(async (t) => {
        const [card] = await sequelize.query<{ id: number; serial: string; product_id: number }>(
          `UPDATE voucher_cards SET status = 'VOID', voided_at = now(), void_reason = :reason WHERE id = :id AND status = 'AVAILABLE' RETURNING id, serial, product_id`,
          { replacements: { id: n, reason: value.reason }, type: QueryTypes.SELECT, transaction: t }
        )
        if (!card) {
          const [exists] = await sequelize.query<{ status: string }>('SELECT status FROM voucher_cards WHERE id = :id', {
            replacements: { id: n },
            type: QueryTypes.SELECT,
            transaction: t
          })
          if (!exists) throw notFound('Card not found')
          throw conflict(exists.status === 'SOLD' ? 'This card has been sold and cannot be voided' : 'This card is already void')
        }
        await audit.record(
          {
            action: 'VOUCHER_CARD_VOIDED',
            resource: 'VOUCHER_PRODUCT',
            resourceId: card.product_id,
            severity: 'MEDIUM',
            details: { cardId: card.id, serial: card.serial, reason: value.reason }
          },
          { ...ctx, transaction: t }
        )
        return { message: 'Card voided' }
      })
    },

    /** Unsold cards of a product (serials only) so an admin can find the one to void. */
    async stock(productId: unknown, serial: unknown) {
      const pid = Number(productId)
      if (!Number.isInteger(pid) || pid <= 0) throw badRequest('Invalid product')
      const s = String(serial ?? '').trim()
      const rows = await q<{ id: number; serial: string; status: string; expires_on: string | null }>(
        `SELECT id, serial, status, to_char(expires_on, 'YYYY-MM-DD') AS expires_on FROM voucher_cards WHERE product_id = :pid AND status <> 'SOLD' AND (:s = '' OR serial ILIKE :like) ORDER BY id DESC LIMIT 50`,
        { pid, s, like: `%${s.replace(/[%_\\]/g, '')}%` }
      )
      return { cards: rows.map((r) => ({ id: Number(r.id), serial: r.serial, status: r.status, expiresOn: r.expires_on })) }
    }
  }
}
