import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import type { Logger } from '../../lib/logger.ts'
import { normalizePhone, phoneVariants } from '../../lib/phone.ts'
import { formatSize, NETWORK_LABEL } from '../../lib/vocabulary.ts'
import type { Ctx } from '../context.ts'
import type { LimitsService } from '../limits/index.ts'
import type { OrdersService } from '../orders/index.ts'
import type { PricingService } from '../pricing/index.ts'
import type { PackagesService } from '../packages/index.ts'
import type { Queue } from '../queue/index.ts'
import type { SettingsService } from '../settings/index.ts'
import { converse, type ChatPorts, type ChatState } from './conversation.ts'
import { createGraphSender, createSimulatorSender, WhatsappSendError, type WhatsappSender } from './graph.ts'
import { plainText, templateOf, toGraph, type Incoming, type Outgoing } from './messages.ts'
import { parseWebhook, validSignature } from './webhook.ts'

export const WHATSAPP_SEND_TASK = 'whatsapp.send'
/** Free-form messages may follow a customer's message for 24 hours; after that only templates. */
const WINDOW_HOURS = 24

type Deps = {
  sequelize: Sequelize
  env: Env
  log: Logger
  settings: SettingsService
  packages: PackagesService
  pricing: Pick<PricingService, 'quotes'>
  orders: OrdersService
  limits: LimitsService
  queue: Queue
  sender?: WhatsappSender
}

export interface ChatMessage {
  id: number
  direction: 'in' | 'out'
  sentBy: 'customer' | 'bot' | 'admin'
  status: string
  text: string
  /** Tappable replies of an outgoing button or list message. */
  choices: { id: string; title: string; description?: string }[]
  createdAt: Date
}

export type WhatsappService = ReturnType<typeof createWhatsappService>

/**
 * WhatsApp ordering (docs/whatsapp.md, ADR 0042): Meta's webhook in (signature checked, each message
 * id handled once), the conversation's state in whatsapp_chats, the bot's answers out through the
 * queue, and a receipt when the order is delivered. Orders go through services.orders like every channel.
 */
export function createWhatsappService(deps: Deps) {
  const { sequelize, env, log, settings, packages, orders, limits, queue } = deps
  const sender =
    deps.sender ??
    (env.WHATSAPP_ACCESS_TOKEN && env.WHATSAPP_PHONE_NUMBER_ID
      ? createGraphSender({
          graphUrl: env.WHATSAPP_GRAPH_URL,
          version: env.WHATSAPP_API_VERSION,
          phoneNumberId: env.WHATSAPP_PHONE_NUMBER_ID,
          token: env.WHATSAPP_ACCESS_TOKEN
        })
      : createSimulatorSender())
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>, transaction?: Transaction) =>
    sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction })

  /** Writes the bot's (or an admin's) messages and queues their sending, in the caller's transaction; in order, one job. */
  async function say(waId: string, messages: Outgoing[], t: Transaction, by: 'bot' | 'admin' = 'bot'): Promise<void> {
    if (!messages.length) return
    const ids: number[] = []
    for (const m of messages) {
      const [row] = await q<{ id: number }>(
        `INSERT INTO whatsapp_messages (wa_id, direction, body, status, sent_by) VALUES (:waId, 'out', CAST(:body AS jsonb), 'queued', :by) RETURNING id`,
        { waId, body: JSON.stringify(m), by },
        t
      )
      ids.push(Number(row!.id))
    }
    await queue.enqueue(WHATSAPP_SEND_TASK, { ids }, { transaction: t, jobKey: `wa:${ids[0]}`, maxAttempts: 8 })
  }

  function portsFor(waId: string, t: Transaction): ChatPorts {
    return {
      settings: () => settings.get(),
      async bundles(network) {
        const list = await packages.listActive({ network })
        // The chat's customer is a visitor: the one price rule's answer for nobody signed in.
        const quotes = await deps.pricing.quotes(null, list)
        return list.map((p) => ({ id: p.id, network: p.network, sizeMb: p.sizeMb, pricePesewas: quotes.get(p.id)!.pricePesewas }))
      },
      async place(input) {
        // Each prompt rings a phone: the web's per-number limit.
        await limits.take({ orderPerPhone: input.payer })
        // A savepoint: a refused order leaves the chat's transaction usable for the answer.
        const placed = await sequelize.transaction({ transaction: t }, (sp) =>
          orders.placeOrder(
            {
              packageId: input.packageId,
              recipientNumber: input.recipient,
              payerPhone: input.payer,
              payerNetwork: input.payerNetwork,
              voucher: input.voucher,
              channel: 'whatsapp'
            },
            { user: null, transaction: sp, log },
            {
              andThen: async (orderId, tx) =>
                void (await q(`INSERT INTO whatsapp_orders (order_id, wa_id) VALUES (:orderId, :waId) RETURNING order_id`, { orderId, waId }, tx))
            }
          )
        )
        return { transactionId: String(placed.order.paymentTransactionId ?? ''), amountPesewas: placed.amountPesewas }
      },
      async recentOrders(limit) {
        const rows = await q<any>(
          `SELECT o.payment_transaction_id, o.network, o.data_size_mb, o.recipient_number, o.amount_pesewas, o.payment_status, o.delivery_status
             FROM whatsapp_orders w JOIN orders_view o ON o.id = w.order_id WHERE w.wa_id = :waId ORDER BY w.order_id DESC LIMIT :limit`,
          { waId, limit },
          t
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
        await q(`UPDATE whatsapp_chats SET handed_off = true, updated_at = now() WHERE wa_id = :waId RETURNING wa_id`, { waId }, t)
      }
    }
  }

  /** One customer message: stored once by its id (a redelivery changes nothing), then answered. */
  async function handle(m: Incoming): Promise<boolean> {
    return sequelize.transaction(async (t) => {
      const [fresh] = await q<{ id: number }>(
        `INSERT INTO whatsapp_messages (wa_id, direction, wamid, body, status, sent_by)
         VALUES (:waId, 'in', :wamid, CAST(:body AS jsonb), 'received', 'customer')
         ON CONFLICT (wamid) WHERE wamid IS NOT NULL DO NOTHING RETURNING id`,
        { waId: m.from, wamid: m.wamid, body: JSON.stringify({ text: m.text, replyId: m.replyId, replyTitle: m.replyTitle }) },
        t
      )
      if (!fresh) return false
      const [chat] = await q<{ state: ChatState; handed_off: boolean }>(
        `INSERT INTO whatsapp_chats (wa_id, name, last_inbound_at) VALUES (:waId, :name, now())
         ON CONFLICT (wa_id) DO UPDATE SET last_inbound_at = now(), name = COALESCE(EXCLUDED.name, whatsapp_chats.name), updated_at = now()
         RETURNING state, handed_off`,
        { waId: m.from, name: m.name },
        t
      )
      // A chat handed to a person waits for the admin; "menu" brings the bot back.
      if (chat!.handed_off && !/^\s*menu\s*$/i.test(m.text ?? '')) return true
      if (!(await settings.get()).whatsappBotEnabled) return true
      const state = { ...(chat!.state ?? {}) }
      const replies = await converse(state, { waId: m.from, text: m.text, replyId: m.replyId }, portsFor(m.from, t))
      await q(
        `UPDATE whatsapp_chats SET state = CAST(:state AS jsonb), handed_off = handed_off AND NOT :back, updated_at = now() WHERE wa_id = :waId RETURNING wa_id`,
        { waId: m.from, state: JSON.stringify(state), back: chat!.handed_off },
        t
      )
      await say(m.from, replies, t)
      return true
    })
  }

  /** Messages and status callbacks of one (already authenticated) webhook body. */
  async function receive(body: unknown): Promise<{ received: number; duplicates: number; statuses: number }> {
    const parsed = parseWebhook(body)
    if (!parsed.ok) throw badRequest(`Invalid WhatsApp webhook: ${parsed.error}`)
    let received = 0
    let duplicates = 0
    for (const m of parsed.batch.messages) (await handle(m)) ? received++ : duplicates++
    for (const s of parsed.batch.statuses) {
      // Statuses may arrive out of order: a 'read' is never overwritten by a late 'delivered'.
      await q(
        `UPDATE whatsapp_messages SET status = :status, updated_at = now()
          WHERE wamid = :wamid AND direction = 'out'
            AND array_position(ARRAY['queued','sent','delivered','read'], status) < COALESCE(array_position(ARRAY['queued','sent','delivered','read'], CAST(:status AS text)), 99)
          RETURNING id`,
        { wamid: s.wamid, status: s.status }
      )
    }
    return { received, duplicates, statuses: parsed.batch.statuses.length }
  }

  /** The queued send of a chat's messages, in order. A message already sent is skipped (a retried job). */
  async function runSend(ids: number[]): Promise<void> {
    for (const id of ids) {
      const [row] = await q<{ wa_id: string; body: Outgoing; status: string; in_window: boolean }>(
        `SELECT m.wa_id, m.body, m.status, COALESCE(c.last_inbound_at > now() - make_interval(hours => :hours), false) AS in_window
           FROM whatsapp_messages m LEFT JOIN whatsapp_chats c ON c.wa_id = m.wa_id WHERE m.id = :id`,
        { id, hours: WINDOW_HOURS }
      )
      if (!row || row.status !== 'queued') continue
      const wire = row.in_window
        ? toGraph(row.wa_id, row.body)
        : templateOf(row.wa_id, plainText(row.body), { name: env.WHATSAPP_TEMPLATE_NAME, language: env.WHATSAPP_TEMPLATE_LANGUAGE })
      try {
        const { wamid } = await sender.send(wire)
        await q(`UPDATE whatsapp_messages SET status = 'sent', wamid = :wamid, updated_at = now() WHERE id = :id AND status = 'queued' RETURNING id`, {
          id,
          wamid
        })
      } catch (err) {
        if (err instanceof WhatsappSendError && !err.retry) {
          log.warn({ err: { message: err.message }, id }, 'WhatsApp message refused')
          await q(`UPDATE whatsapp_messages SET status = 'failed', error = :error, updated_at = now() WHERE id = :id RETURNING id`, {
            id,
            error: err.message.slice(0, 500)
          })
          continue
        }
        throw err
      }
    }
  }

  async function chatOrThrow(waId: string) {
    const [chat] = await q<{ wa_id: string; name: string | null; handed_off: boolean; last_inbound_at: Date | null }>(
      `SELECT * FROM whatsapp_chats WHERE wa_id = :waId`,
      { waId }
    )
    if (!chat) throw notFound('Chat not found')
    return chat
  }

  return {
    sender: sender.name,
    /** No WhatsApp account configured: the simulator page plays the customer. */
    simulated: sender.name === 'simulator',
    receive,
    runSend,

    /** Meta's GET check of the webhook URL: the challenge back when the verify token matches. */
    verifySubscription(query: Record<string, unknown>): string | null {
      const token = env.WHATSAPP_VERIFY_TOKEN
      if (!token || query['hub.mode'] !== 'subscribe' || query['hub.verify_token'] !== token) return null
      const challenge = query['hub.challenge']
      return typeof challenge === 'string' && /^[\w-]{1,200}$/.test(challenge) ? challenge : null
    },

    /** Meta's POST: refused (false) unless X-Hub-Signature-256 is the app secret's HMAC of the raw body. */
    async webhook(raw: Buffer | undefined, signature: unknown, body: unknown, ctx: Ctx = {}) {
      if (!validSignature(raw, signature, env.WHATSAPP_APP_SECRET)) {
        ctx.log?.warn({ ip: ctx.ip }, 'WhatsApp webhook refused: bad or missing X-Hub-Signature-256')
        return null
      }
      return receive(body)
    },

    /** The receipt of a WhatsApp order's delivery, written with the status change (its transaction). */
    async onDeliveryChange(
      order: { id: number; network: string; data_size_mb: number; recipient_number: string; payment_transaction_id?: string | null },
      to: string,
      t: Transaction
    ): Promise<void> {
      const [link] = await q<{ wa_id: string }>(`SELECT wa_id FROM whatsapp_orders WHERE order_id = :id`, { id: order.id }, t)
      if (!link) return
      const what = `${formatSize(order.data_size_mb)} ${NETWORK_LABEL[order.network] ?? order.network} to ${order.recipient_number}`
      const ref = String(order.payment_transaction_id ?? '').slice(-8)
      const text =
        to === 'DELIVERED'
          ? `Delivered: ${what} (ref ${ref}). Thank you for buying with us!`
          : `We could not deliver ${what} (ref ${ref}) yet. Our team is on it.`
      await say(link.wa_id, [{ type: 'text', text }], t)
    },

    /** A chat as its messages, oldest first (simulator page and the admin's messaging page). */
    async transcript(waId: string, limit = 100): Promise<ChatMessage[]> {
      const rows = await q<any>(
        `SELECT * FROM (SELECT id, direction, sent_by, status, body, created_at FROM whatsapp_messages WHERE wa_id = :waId ORDER BY id DESC LIMIT :limit) x ORDER BY id`,
        { waId: String(waId), limit }
      )
      return rows.map((r) => {
        const b = r.body ?? {}
        const out = r.direction === 'out'
        return {
          id: Number(r.id),
          direction: r.direction,
          sentBy: r.sent_by,
          status: r.status,
          text: out ? (b.text ?? '') : (b.replyTitle ?? b.text ?? ''),
          choices: out ? (b.type === 'buttons' ? b.buttons : b.type === 'list' ? b.rows : []) : [],
          createdAt: r.created_at
        }
      })
    },

    /** Chats waiting for a person (handed off), newest first. */
    async waiting(): Promise<{ waId: string; name: string | null; phone: string; updatedAt: Date }[]> {
      const rows = await q<any>(`SELECT wa_id, name, updated_at FROM whatsapp_chats WHERE handed_off ORDER BY updated_at DESC LIMIT 50`, {})
      return rows.map((r) => ({ waId: r.wa_id, name: r.name, phone: normalizePhone(r.wa_id), updatedAt: r.updated_at }))
    },

    /** An admin's answer in a handed-off chat, sent through the same queue (a template outside the 24-hour window). */
    async reply(waId: unknown, text: unknown): Promise<void> {
      const message = String(text ?? '').trim()
      if (!message) throw badRequest('Please type a message')
      if (message.length > 4096) throw badRequest('Message is too long (4096 characters at most)')
      const chat = await chatOrThrow(String(waId))
      await sequelize.transaction((t) => say(chat.wa_id, [{ type: 'text', text: message }], t, 'admin'))
    },

    /** The admin is done: the bot answers this chat again. */
    async release(waId: unknown): Promise<void> {
      const chat = await chatOrThrow(String(waId))
      await q(`UPDATE whatsapp_chats SET handed_off = false, state = '{}'::jsonb, updated_at = now() WHERE wa_id = :waId RETURNING wa_id`, { waId: chat.wa_id })
    },

    /** The simulator's customer typing or tapping: shaped as Meta's webhook would carry it, then handled the same way. */
    async simulate(input: { from?: unknown; name?: unknown; text?: unknown; replyId?: unknown; replyTitle?: unknown }) {
      const from = String(input.from ?? '').replace(/\D/g, '')
      if (!/^\d{9,15}$/.test(from)) throw badRequest('Enter the customer phone number (digits)')
      const local = phoneVariants(from).find((p) => p.startsWith('233')) ?? from
      const replyId = typeof input.replyId === 'string' && input.replyId ? input.replyId.slice(0, 256) : null
      const text = typeof input.text === 'string' ? input.text.slice(0, 4096) : ''
      if (!replyId && !text.trim()) throw badRequest('Type a message')
      const id = `wamid.SIMIN${Date.now()}${Math.random().toString(36).slice(2, 10)}`
      const message = replyId
        ? {
            id,
            from: local,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'interactive',
            interactive: { type: 'button_reply', button_reply: { id: replyId, title: String(input.replyTitle ?? '').slice(0, 100) } }
          }
        : { id, from: local, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: text } }
      await receive({
        object: 'whatsapp_business_account',
        entry: [
          {
            id: 'SIM',
            changes: [
              {
                field: 'messages',
                value: {
                  messaging_product: 'whatsapp',
                  contacts: [{ wa_id: local, profile: { name: String(input.name ?? 'Simulator') } }],
                  messages: [message]
                }
              }
            ]
          }
        ]
      })
      // The simulator's sender answers at once: sent now rather than waiting on a worker.
      const queued = await q<{ id: number }>(`SELECT id FROM whatsapp_messages WHERE wa_id = :waId AND status = 'queued' ORDER BY id`, { waId: local })
      await runSend(queued.map((r) => Number(r.id)))
      return { waId: local }
    },

    registerTasks(): void {
      queue.register<{ ids: unknown }>(WHATSAPP_SEND_TASK, async (p) => runSend((Array.isArray(p.ids) ? p.ids : []).map(Number).filter(Number.isInteger)))
    }
  }
}
