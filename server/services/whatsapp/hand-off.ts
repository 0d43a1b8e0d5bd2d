import { notFound } from '../../lib/errors.ts'
import { normalizePhone } from '../../lib/phone.ts'
import type { Outbox } from './outbox.ts'
import type { WhatsappQueries } from './queries.ts'

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

/** The admins' side of chats: transcripts, the chats waiting for a person, answering and handing back to the bot. */
export function createHandOff(deps: { queries: WhatsappQueries; say: Outbox['say'] }) {
  const { queries, say } = deps

  async function chatOrThrow(waId: string) {
    const chat = await queries.chat(waId)
    if (!chat) throw notFound('Chat not found')
    return chat
  }

  return {
    /** A chat as its messages, oldest first (simulator page and the admin's messaging page). */
    async transcript(waId: string, limit = 100): Promise<ChatMessage[]> {
      const rows = await queries.transcript(String(waId), limit)
      return rows.map((r) => {
        const b = r.body ?? {}
        const out = r.direction === 'out'
        return {
          id: r.id,
          direction: r.direction,
          sentBy: r.sentBy,
          status: r.status,
          text: out ? (b.text ?? '') : (b.replyTitle ?? b.text ?? ''),
          choices: out ? (b.type === 'buttons' ? b.buttons : b.type === 'list' ? b.rows : []) : [],
          createdAt: r.createdAt
        }
      })
    },

    /** Chats waiting for a person (handed off), newest first. */
    async waiting(): Promise<{ waId: string; name: string | null; phone: string; updatedAt: Date }[]> {
      const chats = await queries.handedOff()
      return chats.map((c) => ({ waId: c.waId, name: c.name, phone: normalizePhone(c.waId), updatedAt: c.updatedAt }))
    },

    /** An admin's answer (checked at the edge) in a handed-off chat, sent through the same queue (a template outside the 24-hour window). */
    async reply(waId: string, text: string): Promise<void> {
      const chat = await chatOrThrow(String(waId))
      await queries.transaction((t) => say(chat.waId, [{ type: 'text', text }], t, 'admin'))
    },

    /** The admin is done: the bot answers this chat again. */
    async release(waId: string): Promise<void> {
      const chat = await chatOrThrow(String(waId))
      await queries.release(chat.waId)
    }
  }
}
