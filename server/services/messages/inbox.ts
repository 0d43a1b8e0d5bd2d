import { Op, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { preparedFor } from '../../../models/prepared.ts'
import { notFound } from '../../lib/errors.ts'
import { parseId, requireActiveAgent } from '../agents/index.ts'
import type { Ctx } from '../context.ts'

export interface InboxItem {
  id: number
  messageId: number
  isRead: boolean
  readAt: string | null
  message: { id: number; title: string; message: string; priority: string; createdAt: string }
}

const WHAT = 'Messages'

interface InboxRow {
  id: number
  message_id: number
  is_read: boolean | null
  read_at: Date | null
  title: string
  message: string
  priority: string
  created_at: Date
}

export type InboxService = ReturnType<typeof createInboxService>

/** The admins' messages as one agent sees them; each agent reads and marks only its own copies. */
export function createInboxService({ sequelize, models }: { sequelize: Sequelize; models: Models }) {
  const run = preparedFor(sequelize)
  async function unread(userId: number): Promise<number> {
    const [row] = await run<{ n: number }>('SELECT count(*)::int AS n FROM admin_message_recipients WHERE user_id = $1 AND is_read = false', [userId])
    return row?.n ?? 0
  }

  return {
    async myMessages(ctx: Ctx, opts: { limit?: number } = {}): Promise<InboxItem[]> {
      requireActiveAgent(ctx, WHAT)
      const limit = Math.min(Math.max(Number(opts.limit) || 100, 1), 200)
      // A named statement and plain rows: the agent dashboard reads this on every request (ADR 0043).
      const rows = await run<InboxRow>(
        `SELECT r.id, r.message_id, r.is_read, r.read_at, m.title, m.message, m.priority, m.created_at
           FROM admin_message_recipients r JOIN admin_messages m ON m.id = r.message_id
          WHERE r.user_id = $1
          ORDER BY m.created_at DESC, r.id DESC
          LIMIT $2`,
        [ctx.user!.id, limit]
      )
      return rows.map((x) => ({
        id: x.id,
        messageId: x.message_id,
        isRead: !!x.is_read,
        readAt: x.read_at ? new Date(x.read_at).toISOString() : null,
        message: { id: x.message_id, title: x.title, message: x.message, priority: x.priority, createdAt: new Date(x.created_at).toISOString() }
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
