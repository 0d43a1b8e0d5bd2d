import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import type { LimitsService } from '../limits/index.ts'
import type { OrdersService } from '../orders/index.ts'
import type { PackagesService } from '../packages/index.ts'
import { newTransactionId } from '../payments/index.ts'
import type { PricingService } from '../pricing/index.ts'
import type { SettingsService } from '../settings/index.ts'
import type { ChatPorts } from './conversation.ts'

export type PortDeps = {
  sequelize: Sequelize
  log: Logger
  settings: SettingsService
  packages: PackagesService
  pricing: Pick<PricingService, 'quotes'>
  orders: OrdersService
  limits: LimitsService
}

/** What one turn asks to change on the chat's row: written with the turn's answers, in their transaction. */
export interface TurnEffects {
  handOff: boolean
}

/**
 * The services a conversation reaches, for one chat's turn. No port holds a transaction while it
 * waits for another connection: each reads on its own, and placing an order is the order service's
 * one transaction, so a burst of chats never needs two pool connections per turn.
 */
export function createChatPorts(deps: PortDeps) {
  const { sequelize, log, settings, packages, orders, limits } = deps
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  /** The chat's order under this reference, when a run of the same turn placed it already. */
  async function placedBefore(waId: string, tid: string) {
    const [row] = await q<{ payment_transaction_id: string; amount_pesewas: number }>(
      `SELECT o.payment_transaction_id, o.amount_pesewas FROM whatsapp_orders w JOIN orders o ON o.id = w.order_id
        WHERE w.wa_id = :waId AND o.payment_transaction_id = :tid`,
      { waId, tid }
    )
    return row ? { transactionId: row.payment_transaction_id, amountPesewas: Number(row.amount_pesewas) } : null
  }

  return function portsFor(waId: string, effects: TurnEffects): ChatPorts {
    const link = async (orderId: number, tx: Transaction) =>
      void (await q(`INSERT INTO whatsapp_orders (order_id, wa_id) VALUES (:orderId, :waId) RETURNING order_id`, { orderId, waId }, tx))
    return {
      settings: () => settings.get(),
      newReference: newTransactionId,
      async bundles(network) {
        const list = await packages.listActive({ network })
        // The chat's customer is a visitor: the one price rule's answer for nobody signed in.
        const quotes = await deps.pricing.quotes(null, list)
        return list.map((p) => ({ id: p.id, network: p.network, sizeMb: p.sizeMb, pricePesewas: quotes.get(p.id)!.pricePesewas }))
      },
      async place(input) {
        // A turn run again after a crash finds its order by the reference chosen at the confirmation.
        const before = await placedBefore(waId, input.reference)
        if (before) return before
        // Each prompt rings a phone: the web's per-number limit.
        await limits.take({ orderPerPhone: input.payer })
        try {
          const placed = await orders.placeOrder(
            {
              packageId: input.packageId,
              recipientNumber: input.recipient,
              payerPhone: input.payer,
              payerNetwork: input.payerNetwork,
              voucher: input.voucher,
              transactionId: input.reference,
              channel: 'whatsapp'
            },
            { user: null, log },
            { andThen: link }
          )
          return { transactionId: String(placed.order.paymentTransactionId ?? ''), amountPesewas: placed.amountPesewas }
        } catch (err) {
          // Two runs of one turn raced: the other placed it.
          const raced = err instanceof AppError && err.status === 409 ? await placedBefore(waId, input.reference) : null
          if (raced) return raced
          throw err
        }
      },
      async recentOrders(limit) {
        const rows = await q<any>(
          `SELECT o.payment_transaction_id, o.network, o.data_size_mb, o.recipient_number, o.amount_pesewas, o.payment_status, o.delivery_status
             FROM whatsapp_orders w JOIN orders_view o ON o.id = w.order_id WHERE w.wa_id = :waId ORDER BY w.order_id DESC LIMIT :limit`,
          { waId, limit }
        )
        return rows.map((r) => ({
          transactionId: r.payment_transaction_id ?? '',
          network: r.network,
          sizeMb: r.data_size_mb,
          recipient: r.recipient_number,
          amountPesewas: r.amount_pesewas,
          paymentStatus: r.payment_status,
          deliveryStatus: r.delivery_status
        }))
      },
      async handOff() {
        effects.handOff = true
      }
    }
  }
}
