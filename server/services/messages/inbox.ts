import { Op, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { notFound } from '../../lib/errors.ts'
import { parseId, requireActiveAgent } from '../agents/index.ts'
import type { Ctx } from '../context.ts'
import { createMessagesQueries } from './queries.ts'

export interface InboxItem {
  id: number
  messageId: number
  isRead: boolean
  readAt: string | null
  message: { id: number; title: string; message: string; priority: string; createdAt: string }
}

const WHAT = 'Messages'

export type InboxService = ReturnType<typeof createInboxService>

/** The admins' messages as one agent sees them; each agent reads and marks only its own copies. */
export function createInboxService({ sequelize, models }: { sequelize: Sequelize; models: Models }) {
  const queries = createMessagesQueries(sequelize)
  const unread = queries.unread

  return {
    async myMessages(ctx: Ctx, opts: { limit?: number } = {}): Promise<InboxItem[]> {
      requireActiveAgent(ctx, WHAT)
      const limit = Math.min(Math.max(Number(opts.limit) || 100, 1), 200)
      const rows = await queries.inbox(ctx.user!.id, limit)
      return rows.map((x) => ({
        id: x.id,
        messageId: x.messageId,
        isRead: x.isRead,
        readAt: x.readAt ? x.readAt.toISOString() : null,
        message: { id: x.messageId, title: x.title, message: x.message, priority: x.priority, createdAt: x.createdAt.toISOString() }
      }))
    },

    async unreadCount(ctx: Ctx): Promise<{ unreadCount: number }> {
      requireActiveAgent(ctx, WHAT)
      return { unreadCount: await unread(ctx.user!.id) }
    },

    /**
     * Marks one of the agent's own messages read; `id` is the message id (AdminMessage.id, the inbox
     * item's messageId). Repeating it changes nothing, so the count never drops twice or below 0.
     */
    async markRead(idRaw: unknown, ctx: Ctx): Promise<{ message: string; id: number; messageId: number; isRead: true; unreadCount: number }> {
      requireActiveAgent(ctx, WHAT)
      const id = parseId(idRaw, 'message')
      const userId = ctx.user!.id
      const row = await models.AdminMessageRecipient.findOne({ where: { userId, messageId: id } })
      if (!row) throw notFound('Message not found')
      await models.AdminMessageRecipient.update({ isRead: true, readAt: new Date() }, { where: { id: row.get('id'), isRead: { [Op.not]: true } } })
      return {
        message: 'Message marked as read',
        id: row.get('id') as number,
        messageId: row.get('messageId') as number,
        isRead: true,
        unreadCount: await unread(userId)
      }
    }
  }
}
