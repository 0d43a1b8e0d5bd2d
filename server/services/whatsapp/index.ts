import { QueryTypes, type Transaction } from 'sequelize'
import type { Env } from '../../env.ts'
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts'
import { publicOrigin } from '../../lib/origin.ts'
import { normalizePhone, phoneVariants } from '../../lib/phone.ts'
import { formatSize, NETWORK_LABEL } from '../../lib/vocabulary.ts'
import type { Ctx } from '../context.ts'
import type { Queue } from '../queue/index.ts'
import { converse, type ChatState } from './conversation.ts'
import { createGraphSender, createSimulatorSender, WhatsappSendError, type WhatsappSender } from './graph.ts'
import { plainText, templateOf, toGraph, type Incoming, type Outgoing } from './messages.ts'
import { createChatPorts, payTokenHash, type PortDeps, type TurnEffects } from './ports.ts'
import { parseWebhook, validSignature } from './webhook.ts'

export const WHATSAPP_SEND_TASK = 'whatsapp.send'
export const WHATSAPP_CHAT_TASK = 'whatsapp.chat'
/**
 * A chat's answering jobs run one at a time, in order, in their own named queue; its sends in another,
 * so the answering job never holds the queue its own answers wait in.
 */
const chatQueue = (waId: string, way: 'in' | 'out') => `wa-${way}:${waId}`
/** Free-form messages may follow a customer's message for 24 hours; after that only templates. */
const WINDOW_HOURS = 24

type Deps = Omit<PortDeps, 'origin'> & {
  env: Env
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

export interface PayLinkView {
  ref: string
  bundle: string
  recipient: string
  amountPesewas: number
  /** 'open': may be paid now; 'expired' also covers an order no longer awaiting payment. */
  state: 'open' | 'paid' | 'expired'
  transactionId: string
}

/**
 * WhatsApp ordering (docs/whatsapp.md, ADR 0042): Meta's webhook in (signature checked, each message
 * id handled once), the conversation's state in whatsapp_chats, the bot's answers out through the
 * queue, and a receipt when the order is delivered. Orders go through services.orders like every channel.
 */
export function createWhatsappService(deps: Deps) {
  const { sequelize, env, log, settings, queue } = deps
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
    await queue.enqueue(WHATSAPP_SEND_TASK, { ids }, { transaction: t, jobKey: `wa:${ids[0]}`, queueName: chatQueue(waId, 'out'), maxAttempts: 8 })
  }

  // A job has no request to take the address from: without PUBLIC_URL, this instance's own (development).
  const portsFor = createChatPorts({ ...deps, origin: publicOrigin(env.PUBLIC_URL, { host: `localhost:${env.PORT}` }) })

  /**
   * The oldest unanswered message of a chat, answered: the conversation runs outside any transaction
   * (its ports read and place on their own), then the message is marked handled with the chat's new
   * state and the answers in one transaction. A message already marked (a job run twice) changes nothing.
   */
  async function answerNext(waId: string): Promise<boolean> {
    const [next] = await q<{ id: number; body: { text: string | null; replyId: string | null }; state: ChatState; handed_off: boolean }>(
      `SELECT m.id, m.body, c.state, c.handed_off FROM whatsapp_messages m JOIN whatsapp_chats c ON c.wa_id = m.wa_id
        WHERE m.wa_id = :waId AND m.direction = 'in' AND m.handled_at IS NULL ORDER BY m.id LIMIT 1`,
      { waId }
    )
    if (!next) return false
    const text = next.body.text ?? null
    const state = { ...(next.state ?? {}) }
    const effects: TurnEffects = { handOff: false }
    let replies: Outgoing[] = []
    // A chat handed to a person waits for the admin; "menu" brings the bot back.
    const waits = next.handed_off && !/^\s*menu\s*$/i.test(text ?? '')
    const answers = !waits && (await settings.get()).whatsappBotEnabled
    if (answers) replies = await converse(state, { waId, text, replyId: next.body.replyId ?? null }, portsFor(waId, effects))
    await sequelize.transaction(async (t) => {
      const [mine] = await q(`UPDATE whatsapp_messages SET handled_at = now() WHERE id = :id AND handled_at IS NULL RETURNING id`, { id: next.id }, t)
      if (!mine || !answers) return
      await q(
        `UPDATE whatsapp_chats SET state = CAST(:state AS jsonb), handed_off = (handed_off AND NOT :back) OR :handOff, updated_at = now() WHERE wa_id = :waId RETURNING wa_id`,
        { waId, state: JSON.stringify(state), back: next.handed_off, handOff: effects.handOff },
        t
      )
      await say(waId, replies, t)
    })
    return true
  }

  /** The queued job of a chat: its messages answered one at a time, oldest first, until none is left. */
  async function runChat(waId: string): Promise<void> {
    for (;;) if (!(await answerNext(waId))) return
  }

  /** One webhook's messages stored once by their ids (a redelivery inserts nothing); one job per chat that got any. */
  async function record(messages: Incoming[]): Promise<number> {
    if (!messages.length) return 0
    return sequelize.transaction(async (t) => {
      const chats = new Set<string>()
      let fresh = 0
      for (const m of messages) {
        const [row] = await q<{ id: number }>(
          `INSERT INTO whatsapp_messages (wa_id, direction, wamid, body, status, sent_by)
           VALUES (:waId, 'in', :wamid, CAST(:body AS jsonb), 'received', 'customer')
           ON CONFLICT (wamid) WHERE wamid IS NOT NULL DO NOTHING RETURNING id`,
          { waId: m.from, wamid: m.wamid, body: JSON.stringify({ text: m.text, replyId: m.replyId, replyTitle: m.replyTitle }) },
          t
        )
        if (!row) continue
        fresh++
        chats.add(m.from)
        await q(
          `INSERT INTO whatsapp_chats (wa_id, name, last_inbound_at) VALUES (:waId, :name, now())
           ON CONFLICT (wa_id) DO UPDATE SET last_inbound_at = now(), name = COALESCE(EXCLUDED.name, whatsapp_chats.name), updated_at = now()
           RETURNING wa_id`,
          { waId: m.from, name: m.name },
          t
        )
      }
      // Keyed per chat: a burst leaves one pending job, and the chat's named queue never runs two at once.
      for (const waId of chats)
        await queue.enqueue(WHATSAPP_CHAT_TASK, { waId }, { transaction: t, jobKey: `wa-chat:${waId}`, queueName: chatQueue(waId, 'in'), maxAttempts: 8 })
      return fresh
    })
  }

  /** Messages and status callbacks of one (already authenticated) webhook body. */
  async function receive(body: unknown): Promise<{ received: number; duplicates: number; statuses: number }> {
    const parsed = parseWebhook(body)
    if (!parsed.ok) throw badRequest(`Invalid WhatsApp webhook: ${parsed.error}`)
    const received = await record(parsed.batch.messages)
    const duplicates = parsed.batch.messages.length - received
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

  /**
   * What a payment link shows: its one order (from the server, never the link) and whether it can
   * still be paid. Null for a token that is not a link: the page answers 404, the same for all.
   */
  async function payView(token: unknown): Promise<PayLinkView | null> {
    const t = String(token ?? '')
    if (!/^[\w-]{20,64}$/.test(t)) return null
    const [row] = await q<any>(
      `SELECT o.payment_transaction_id, o.network, o.data_size_mb, o.recipient_number, o.amount_pesewas, o.payment_status, w.pay_expires_at > now() AS live
         FROM whatsapp_orders w JOIN orders o ON o.id = w.order_id WHERE w.pay_token_hash = :hash`,
      { hash: payTokenHash(t) }
    )
    if (!row) return null
    return {
      ref: String(row.payment_transaction_id).slice(-8),
      bundle: `${formatSize(row.data_size_mb)} ${NETWORK_LABEL[row.network as 'MTN'] ?? row.network}`,
      recipient: row.recipient_number,
      amountPesewas: Number(row.amount_pesewas),
      state: row.payment_status === 'SUCCESS' ? 'paid' : row.payment_status !== 'PENDING' || !row.live ? 'expired' : 'open',
      transactionId: String(row.payment_transaction_id)
    }
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

    payView,

    /** Pays a link's order: card checkout or a mobile money prompt as the gateway setting says; refused once paid or expired. */
    async payByLink(token: unknown, body: unknown, ctx: Ctx & { callbackUrl: string }) {
      const view = await payView(token)
      if (!view) throw notFound('This payment link is not valid')
      if (view.state === 'paid') throw conflict('This order is already paid')
      if (view.state === 'expired') throw new AppError(410, 'This payment link has expired. Ask for a new one in the WhatsApp chat.')
      const b = (body ?? {}) as Record<string, unknown>
      const str = (v: unknown) => (typeof v === 'string' ? v : null)
      // The link is the proof: no browser placed this order, so none is asked to own it.
      const payment = await deps.orders.requestPaymentForOrder(
        {
          transactionId: view.transactionId,
          payerPhone: str(b.payerPhone),
          payerNetwork: str(b.payerNetwork),
          email: str(b.email),
          callbackUrl: ctx.callbackUrl
        },
        { user: null, ip: ctx.ip, log: ctx.log }
      )
      if (!payment) throw notFound('This payment link is not valid')
      return payment
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
      // The simulator's sender answers at once: answered and sent now rather than waiting on a worker.
      await runChat(local)
      const queued = await q<{ id: number }>(`SELECT id FROM whatsapp_messages WHERE wa_id = :waId AND status = 'queued' ORDER BY id`, { waId: local })
      await runSend(queued.map((r) => Number(r.id)))
      return { waId: local }
    },

    registerTasks(): void {
      queue.register<{ ids: unknown }>(WHATSAPP_SEND_TASK, async (p) => runSend((Array.isArray(p.ids) ? p.ids : []).map(Number).filter(Number.isInteger)))
      queue.register<{ waId: unknown }>(WHATSAPP_CHAT_TASK, async (p) => runChat(String(p.waId ?? '')))
    }
  }
}
