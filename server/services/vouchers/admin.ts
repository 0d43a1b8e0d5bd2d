import type { Sequelize } from 'sequelize'
import { badRequest, conflict, notFound } from '../../lib/errors.ts'
import type { SecretBox } from '../../lib/secret-box.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { createHandoverQueries } from './queries-handover.ts'

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
  const queries = createHandoverQueries(sequelize)

  return {
    /** Sold cards, newest first, with a masked PIN and who bought them. */
    async sold(value: SoldListInput) {
      const pid = value.productId || null
      const { cards: rows, total } = await queries.sold(pid, value.limit, (value.page - 1) * value.limit)
      return {
        cards: rows.map((r) => ({
          id: Number(r.id),
          product: r.product,
          serial: r.serial,
          pin: maskPin(box.open(r.pinSealed)),
          soldAt: new Date(r.soldAt).toISOString(),
          transactionId: r.transactionId,
          buyer: r.agentName ? `${r.agentName} (agent, ${r.agentPhone})` : (r.payerPhone ?? ''),
          paidBy: r.gateway
        })),
        total,
        page: value.page,
        limit: value.limit
      }
    },

    /** Takes an unsold card out of stock for good (a card reported used or misprinted). */
    /** The card id and the reason checked at the edge, the id first. */
    async voidCard(n: number, value: { reason: string }, ctx: Ctx): Promise<{ message: string }> {
      return sequelize.transaction(async (t) => {
        const card = await queries.voidAvailable(n, value.reason, t)
        if (!card) {
          const status = await queries.cardStatus(n, t)
          if (!status) throw notFound('Card not found')
          throw conflict(status === 'SOLD' ? 'This card has been sold and cannot be voided' : 'This card is already void')
        }
        await audit.record(
          {
            action: 'VOUCHER_CARD_VOIDED',
            resource: 'VOUCHER_PRODUCT',
            resourceId: card.productId,
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
      return { cards: await queries.unsold(pid, s) }
    }
  }
}
