import type { Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import type { Priority } from './priority.ts'
import { createMessagesQueries } from './queries.ts'

/** A message to every agent can have thousands of recipients; the history lists this many per message. */
export const RECIPIENTS_SHOWN = 200

export interface MessageRecipient {
  id: number
  userId: number
  isRead: boolean
  readAt: string | null
  user: { email: string; name: string | null }
}
export interface AdminMessageView {
  id: number
  title: string
  message: string
  priority: Priority
  createdAt: string
  sender: { email: string } | null
  recipientCount: number
  readCount: number
  recipients: MessageRecipient[]
}

/** A message to send, checked at the edge (routes/admin-messages/schema.ts). */
export interface SendInput {
  title: string
  message: string
  priority: Priority
  /** Distinct user ids, at least one. */
  recipientIds: number[]
}

/** A page of the history, checked at the edge; priority '' or 'ALL' lists every one. */
export interface MessageListInput {
  priority: Priority | 'ALL' | ''
  page: number
  limit: number
}

export type AdminMessagesService = ReturnType<typeof createAdminMessagesService>

export function createAdminMessagesService({ sequelize, models, audit }: { sequelize: Sequelize; models: Models; audit: AuditService }) {
  const queries = createMessagesQueries(sequelize)
  return {
    /** Sends one message to agent users; every recipient must be an agent (user with an agent profile). */
    async send(value: SendInput, ctx: Ctx): Promise<{ message: string; data: { id: number; recipientCount: number } }> {
      const ids = value.recipientIds
      return sequelize.transaction(async (transaction) => {
        const agents = await queries.agentUserIds(ids, transaction)
        if (agents.length !== ids.length) throw badRequest('Recipients must be agents')
        const msg = await models.AdminMessage.create(
          { title: value.title, message: value.message, priority: value.priority, senderId: ctx.user?.id ?? null },
          { transaction }
        )
        const messageId = msg.get('id') as number
        await queries.addRecipients(messageId, ids, transaction)
        await audit.record(
          {
            action: 'MESSAGE_SENT',
            resource: 'SYSTEM',
            resourceId: `message:${messageId}`,
            severity: 'LOW',
            details: { messageId, title: value.title, priority: value.priority, recipients: ids.length }
          },
          { ...ctx, transaction }
        )
        return { message: 'Message sent successfully', data: { id: messageId, recipientCount: ids.length } }
      })
    },

    /** Newest first, with read state per recipient; paging and filtering in SQL. */
    async list(
      value: MessageListInput
    ): Promise<{ messages: AdminMessageView[]; pagination: { page: number; limit: number; total: number; totalPages: number } }> {
      const filter = value.priority && value.priority !== 'ALL' ? value.priority : null
      const total = await queries.countMessages(filter)
      const rows = await queries.messages(filter, { limit: value.limit, offset: (value.page - 1) * value.limit })
      const recips = await queries.recipients(
        rows.map((r) => r.id),
        RECIPIENTS_SHOWN
      )
      const byMessage = new Map<number, MessageRecipient[]>()
      for (const r of recips) {
        const list = byMessage.get(r.messageId) ?? []
        list.push({ id: r.id, userId: r.userId, isRead: r.isRead, readAt: r.readAt ? r.readAt.toISOString() : null, user: { email: r.email, name: r.name } })
        byMessage.set(r.messageId, list)
      }
      return {
        messages: rows.map((r) => ({
          id: r.id,
          title: r.title,
          message: r.message,
          priority: r.priority,
          createdAt: r.createdAt.toISOString(),
          sender: r.senderEmail ? { email: r.senderEmail } : null,
          recipientCount: r.recipientCount,
          readCount: r.readCount,
          recipients: byMessage.get(r.id) ?? []
        })),
        pagination: { page: value.page, limit: value.limit, total, totalPages: Math.max(1, Math.ceil(total / value.limit)) }
      }
    },

    async remove(rawId: unknown, ctx: Ctx): Promise<{ message: string }> {
      const id = Number(rawId)
      if (!Number.isInteger(id) || id < 1) throw badRequest('Invalid message id')
      return sequelize.transaction(async (transaction) => {
        const row = await models.AdminMessage.findByPk(id, { transaction })
        if (!row) throw notFound('Message not found')
        await row.destroy({ transaction })
        await audit.record(
          { action: 'MESSAGE_DELETED', resource: 'SYSTEM', resourceId: `message:${id}`, severity: 'LOW', details: { messageId: id, title: row.get('title') } },
          { ...ctx, transaction }
        )
        return { message: 'Message deleted successfully' }
      })
    }
  }
}
