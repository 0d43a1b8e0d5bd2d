import type { Env } from '../../env.ts'
import { safeEqual } from '../../lib/crypto.ts'
import { badRequest } from '../../lib/errors.ts'
import type { Ctx } from '../context.ts'
import type { Queue } from '../queue/index.ts'
import type { Incoming } from './messages.ts'
import type { WhatsappQueries } from './queries.ts'
import { chatQueue, WHATSAPP_CHAT_TASK } from './tasks.ts'
import { parseWebhook, validSignature } from './webhook.ts'

export interface InboundDeps {
  queries: WhatsappQueries
  queue: Queue
  env: Env
}

/** Meta's webhook in: the URL check, the signature, each message stored once and one answering job per chat. */
export function createInbound(deps: InboundDeps) {
  const { queries, queue, env } = deps

  /** One webhook's messages stored once by their ids (a redelivery inserts nothing); one job per chat that got any. */
  async function record(messages: Incoming[]): Promise<number> {
    if (!messages.length) return 0
    return queries.transaction(async (t) => {
      const chats = new Set<string>()
      let fresh = 0
      for (const m of messages) {
        const id = await queries.insertIncoming({ from: m.from, wamid: m.wamid, body: { text: m.text, replyId: m.replyId, replyTitle: m.replyTitle } }, t)
        if (id === null) continue
        fresh++
        chats.add(m.from)
        await queries.touchChat(m.from, m.name, t)
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
    for (const s of parsed.batch.statuses) await queries.advanceStatus(s.wamid, s.status)
    return { received, duplicates, statuses: parsed.batch.statuses.length }
  }

  return {
    receive,

    /** Meta's GET check of the webhook URL: the challenge back when the verify token matches. */
    verifySubscription(query: Record<string, unknown>): string | null {
      const token = env.WHATSAPP_VERIFY_TOKEN
      const given = query['hub.verify_token']
      // Compared in constant time: the token is the URL's only proof, like a signature's secret.
      if (!token || query['hub.mode'] !== 'subscribe' || typeof given !== 'string' || !safeEqual(given, token)) return null
      const challenge = query['hub.challenge']
      return typeof challenge === 'string' && /^[\w-]{1,200}$/.test(challenge) ? challenge : null
    },

    /** Meta's POST: refused (null) unless X-Hub-Signature-256 is the app secret's HMAC of the raw body. */
    async webhook(raw: Buffer | undefined, signature: unknown, body: unknown, ctx: Ctx = {}) {
      if (!validSignature(raw, signature, env.WHATSAPP_APP_SECRET)) {
        ctx.log?.warn({ ip: ctx.ip }, 'WhatsApp webhook refused: bad or missing X-Hub-Signature-256')
        return null
      }
      return receive(body)
    }
  }
}
