import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { ChatOrder, ChatState } from './conversation.ts'
import type { Outgoing } from './messages.ts'

// Every statement of the WhatsApp capability, and the typed camelCase rows they return: from here on
// nothing in whatsapp reads a snake_case column.

export interface Chat {
  waId: string
  name: string | null
  handedOff: boolean
  lastInboundAt: Date | null
}

/** What an incoming message carries in its body column. */
export interface IncomingBody {
  text: string | null
  replyId: string | null
  replyTitle?: string | null
}

/** The oldest unanswered message of a chat, with the chat's state. */
export interface Unanswered {
  id: number
  body: IncomingBody
  state: ChatState | null
  handedOff: boolean
}

/** An outgoing message waiting to be sent, and whether the chat's 24-hour window is open. */
export interface Sendable {
  waId: string
  body: Outgoing
  status: string
  inWindow: boolean
}

/** The order behind a payment link. */
export interface PayLinkOrder {
  paymentTransactionId: string
  network: string
  dataSizeMb: number
  recipientNumber: string
  amountPesewas: number
  paymentStatus: string
  live: boolean
}

export interface TranscriptRow {
  id: number
  direction: 'in' | 'out'
  sentBy: 'customer' | 'bot' | 'admin'
  status: string
  // The stored JSON: an incoming message's text and reply, or an outgoing message as sent.
  body: Record<string, any> | null
  createdAt: Date
}

type Raw = Record<string, any>
const toChat = (r: Raw): Chat => ({ waId: r.wa_id, name: r.name, handedOff: Boolean(r.handed_off), lastInboundAt: r.last_inbound_at })

/** The statements behind WhatsApp ordering (whatsapp_chats, whatsapp_messages, whatsapp_orders). */
export function createWhatsappQueries(sequelize: Sequelize) {
  const q = <T extends object = Raw>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  return {
    transaction: <T>(work: (t: Transaction) => Promise<T>) => sequelize.transaction(work),

    /** An outgoing message, queued; its id. */
    async insertOutgoing(waId: string, message: Outgoing, by: 'bot' | 'admin', t: Transaction): Promise<number> {
      const [row] = await q(
        `INSERT INTO whatsapp_messages (wa_id, direction, body, status, sent_by) VALUES (:waId, 'out', CAST(:body AS jsonb), 'queued', :by) RETURNING id`,
        { waId, body: JSON.stringify(message), by },
        t
      )
      return Number(row!.id)
    },

    /** An incoming message stored once by its wamid: its id, or null for a redelivery. */
    async insertIncoming(m: { from: string; wamid: string; body: IncomingBody }, t: Transaction): Promise<number | null> {
      const [row] = await q(
        `INSERT INTO whatsapp_messages (wa_id, direction, wamid, body, status, sent_by)
         VALUES (:waId, 'in', :wamid, CAST(:body AS jsonb), 'received', 'customer')
         ON CONFLICT (wamid) WHERE wamid IS NOT NULL DO NOTHING RETURNING id`,
        { waId: m.from, wamid: m.wamid, body: JSON.stringify(m.body) },
        t
      )
      return row ? Number(row.id) : null
    },

    /** The chat, made on its first message; each message renews its window and its name. */
    async touchChat(waId: string, name: string | null, t: Transaction): Promise<void> {
      await q(
        `INSERT INTO whatsapp_chats (wa_id, name, last_inbound_at) VALUES (:waId, :name, now())
         ON CONFLICT (wa_id) DO UPDATE SET last_inbound_at = now(), name = COALESCE(EXCLUDED.name, whatsapp_chats.name), updated_at = now()
         RETURNING wa_id`,
        { waId, name },
        t
      )
    },

    async nextUnanswered(waId: string): Promise<Unanswered | null> {
      const [r] = await q(
        `SELECT m.id, m.body, c.state, c.handed_off FROM whatsapp_messages m JOIN whatsapp_chats c ON c.wa_id = m.wa_id
          WHERE m.wa_id = :waId AND m.direction = 'in' AND m.handled_at IS NULL ORDER BY m.id LIMIT 1`,
        { waId }
      )
      return r ? { id: Number(r.id), body: r.body, state: r.state, handedOff: Boolean(r.handed_off) } : null
    },

    /** Marks a message handled; false when a run before this one did. */
    async markHandled(id: number, t: Transaction): Promise<boolean> {
      const rows = await q(`UPDATE whatsapp_messages SET handled_at = now() WHERE id = :id AND handled_at IS NULL RETURNING id`, { id }, t)
      return rows.length > 0
    },

    /** A turn's new state; `back` leaves a hand-off, `handOff` starts one. */
    async saveTurn(waId: string, turn: { state: ChatState; back: boolean; handOff: boolean }, t: Transaction): Promise<void> {
      await q(
        `UPDATE whatsapp_chats SET state = CAST(:state AS jsonb), handed_off = (handed_off AND NOT :back) OR :handOff, updated_at = now() WHERE wa_id = :waId RETURNING wa_id`,
        { waId, state: JSON.stringify(turn.state), back: turn.back, handOff: turn.handOff },
        t
      )
    },

    /** A status callback; statuses may arrive out of order, so a 'read' is never overwritten by a late 'delivered'. */
    async advanceStatus(wamid: string, status: string): Promise<void> {
      await q(
        `UPDATE whatsapp_messages SET status = :status, updated_at = now()
          WHERE wamid = :wamid AND direction = 'out'
            AND array_position(ARRAY['queued','sent','delivered','read'], status) < COALESCE(array_position(ARRAY['queued','sent','delivered','read'], CAST(:status AS text)), 99)
          RETURNING id`,
        { wamid, status }
      )
    },

    async sendable(id: number, windowHours: number): Promise<Sendable | null> {
      const [r] = await q(
        `SELECT m.wa_id, m.body, m.status, COALESCE(c.last_inbound_at > now() - make_interval(hours => :hours), false) AS in_window
           FROM whatsapp_messages m LEFT JOIN whatsapp_chats c ON c.wa_id = m.wa_id WHERE m.id = :id`,
        { id, hours: windowHours }
      )
      return r ? { waId: r.wa_id, body: r.body, status: r.status, inWindow: Boolean(r.in_window) } : null
    },

    async markSent(id: number, wamid: string): Promise<void> {
      await q(`UPDATE whatsapp_messages SET status = 'sent', wamid = :wamid, updated_at = now() WHERE id = :id AND status = 'queued' RETURNING id`, {
        id,
        wamid
      })
    },

    async markFailed(id: number, error: string): Promise<void> {
      await q(`UPDATE whatsapp_messages SET status = 'failed', error = :error, updated_at = now() WHERE id = :id RETURNING id`, { id, error })
    },

    async queuedIds(waId: string): Promise<number[]> {
      const rows = await q(`SELECT id FROM whatsapp_messages WHERE wa_id = :waId AND status = 'queued' ORDER BY id`, { waId })
      return rows.map((r) => Number(r.id))
    },

    /** The last `limit` messages of a chat, oldest first. */
    async transcript(waId: string, limit: number): Promise<TranscriptRow[]> {
      const rows = await q(
        `SELECT * FROM (SELECT id, direction, sent_by, status, body, created_at FROM whatsapp_messages WHERE wa_id = :waId ORDER BY id DESC LIMIT :limit) x ORDER BY id`,
        { waId, limit }
      )
      return rows.map((r) => ({ id: Number(r.id), direction: r.direction, sentBy: r.sent_by, status: r.status, body: r.body, createdAt: r.created_at }))
    },

    async chat(waId: string): Promise<Chat | null> {
      const [r] = await q(`SELECT * FROM whatsapp_chats WHERE wa_id = :waId`, { waId })
      return r ? toChat(r) : null
    },

    /** Chats handed to a person, newest first. */
    async handedOff(): Promise<(Chat & { updatedAt: Date })[]> {
      const rows = await q(`SELECT * FROM whatsapp_chats WHERE handed_off ORDER BY updated_at DESC LIMIT 50`, {})
      return rows.map((r) => ({ ...toChat(r), updatedAt: r.updated_at as Date }))
    },

    /** The bot takes the chat back, from the start. */
    async release(waId: string): Promise<void> {
      await q(`UPDATE whatsapp_chats SET handed_off = false, state = '{}'::jsonb, updated_at = now() WHERE wa_id = :waId RETURNING wa_id`, { waId })
    },

    /** The chat an order was placed from, if any. */
    async chatOfOrder(orderId: number, t: Transaction): Promise<string | null> {
      const [r] = await q(`SELECT wa_id FROM whatsapp_orders WHERE order_id = :id`, { id: orderId }, t)
      return r ? r.wa_id : null
    },

    async linkOrder(orderId: number, waId: string, t: Transaction): Promise<void> {
      await q(`INSERT INTO whatsapp_orders (order_id, wa_id) VALUES (:orderId, :waId) RETURNING order_id`, { orderId, waId }, t)
    },

    /** The chat's order under this reference, when one was placed already. */
    async placedBefore(waId: string, tid: string): Promise<{ transactionId: string; amountPesewas: number } | null> {
      const [r] = await q(
        `SELECT o.payment_transaction_id, o.amount_pesewas FROM whatsapp_orders w JOIN orders o ON o.id = w.order_id
          WHERE w.wa_id = :waId AND o.payment_transaction_id = :tid`,
        { waId, tid }
      )
      return r ? { transactionId: r.payment_transaction_id, amountPesewas: Number(r.amount_pesewas) } : null
    },

    /** Arms a payment link on the chat's order: its token's hash, good for `minutes`. */
    async setPayToken(input: { waId: string; transactionId: string; hash: string; minutes: number }): Promise<void> {
      await q(
        `UPDATE whatsapp_orders w SET pay_token_hash = :hash, pay_expires_at = now() + make_interval(mins => :minutes)
           FROM orders o WHERE o.id = w.order_id AND w.wa_id = :waId AND o.payment_transaction_id = :tid RETURNING w.order_id`,
        { hash: input.hash, minutes: input.minutes, waId: input.waId, tid: input.transactionId }
      )
    },

    async payLinkOrder(hash: string): Promise<PayLinkOrder | null> {
      const [r] = await q(
        `SELECT o.payment_transaction_id, o.network, o.data_size_mb, o.recipient_number, o.amount_pesewas, o.payment_status, w.pay_expires_at > now() AS live
           FROM whatsapp_orders w JOIN orders o ON o.id = w.order_id WHERE w.pay_token_hash = :hash`,
        { hash }
      )
      if (!r) return null
      return {
        paymentTransactionId: String(r.payment_transaction_id),
        network: r.network,
        dataSizeMb: Number(r.data_size_mb),
        recipientNumber: r.recipient_number,
        amountPesewas: Number(r.amount_pesewas),
        paymentStatus: r.payment_status,
        live: Boolean(r.live)
      }
    },

    /** The chat's latest orders, newest first. */
    async recentOrders(waId: string, limit: number): Promise<ChatOrder[]> {
      const rows = await q(
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
    }
  }
}

export type WhatsappQueries = ReturnType<typeof createWhatsappQueries>
