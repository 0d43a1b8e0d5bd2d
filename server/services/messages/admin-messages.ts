import Joi from 'joi'
import { QueryTypes, type Sequelize } from 'sequelize'
import type { Models } from '../../../models/index.ts'
import { badRequest, notFound } from '../../lib/errors.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'

export const PRIORITIES = ['LOW', 'NORMAL', 'HIGH', 'URGENT'] as const
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
  priority: (typeof PRIORITIES)[number]
  createdAt: string
  sender: { email: string } | null
  recipientCount: number
  readCount: number
  recipients: MessageRecipient[]
}

const sendSchema = Joi.object({
  title: Joi.string().trim().max(200).required(),
  message: Joi.string().trim().max(5000).required(),
  priority: Joi.string()
    .trim()
    .uppercase()
    .valid(...PRIORITIES)
    .default('NORMAL'),
  recipientIds: Joi.array().items(Joi.number().integer().min(1)).min(1).max(20_000).unique().required()
})
  .options({ stripUnknown: true, convert: true })
  .messages({
    'string.empty': '{#label} is required',
    'array.min': 'Select at least one recipient',
    'array.unique': 'Each recipient may be given once'
  })

const listSchema = Joi.object({
  priority: Joi.string()
    .trim()
    .uppercase()
    .valid(...PRIORITIES, 'ALL', '')
    .default(''),
  page: Joi.number().integer().min(1).max(100_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(50)
}).options({ stripUnknown: true })

export type AdminMessagesService = ReturnType<typeof createAdminMessagesService>

export function createAdminMessagesService({ sequelize, models, audit }: { sequelize: Sequelize; models: Models; audit: AuditService }) {
  return {
    /** Sends one message to agent users; every recipient must be an agent (user with an agent profile). */
    async send(input: unknown, ctx: Ctx): Promise<{ message: string; data: { id: number; recipientCount: number } }> {
      const { value, error } = sendSchema.validate(input ?? {})
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const ids: number[] = value.recipientIds
      return sequelize.transaction(async (transaction) => {
        const agents = await sequelize.query<{ id: number }>(
          `SELECT u.id FROM users u JOIN agents a ON a.user_id = u.id WHERE u.role = 'AGENT' AND u.id = ANY($1::int[])`,
          { bind: [ids], type: QueryTypes.SELECT, transaction }
        )
        if (agents.length !== ids.length) throw badRequest('Recipients must be agents')
        const msg = await models.AdminMessage.create(
          { title: value.title, message: value.message, priority: value.priority, senderId: ctx.user?.id ?? null },
          { transaction }
        )
        const messageId = msg.get('id') as number
        await sequelize.query(`INSERT INTO admin_message_recipients (message_id, user_id) SELECT $1, unnest($2::int[])`, {
          bind: [messageId, ids],
          transaction
        })
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
    async list(query: unknown): Promise<{ messages: AdminMessageView[]; pagination: { page: number; limit: number; total: number; totalPages: number } }> {
      const { value, error } = listSchema.validate(query ?? {}, { convert: true })
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const filter = value.priority && value.priority !== 'ALL' ? value.priority : null
      const [count] = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM admin_messages WHERE ($1::text IS NULL OR priority = $1)`, {
        bind: [filter],
        type: QueryTypes.SELECT
      })
      const total = Number(count?.n ?? 0)
      const rows = await sequelize.query<any>(
        `SELECT m.id, m.title, m.message, m.priority, m.created_at, s.email AS sender_email,
           (SELECT count(*) FROM admin_message_recipients r WHERE r.message_id = m.id) AS recipient_count,
           (SELECT count(*) FROM admin_message_recipients r WHERE r.message_id = m.id AND r.is_read) AS read_count
         FROM admin_messages m LEFT JOIN users s ON s.id = m.sender_id
         WHERE ($1::text IS NULL OR m.priority = $1)
         ORDER BY m.created_at DESC, m.id DESC LIMIT $2 OFFSET $3`,
        { bind: [filter, value.limit, (value.page - 1) * value.limit], type: QueryTypes.SELECT }
      )
      const ids = rows.map((r) => r.id)
      const recips = ids.length
        ? await sequelize.query<any>(
            `SELECT * FROM (
               SELECT r.id, r.message_id, r.user_id, r.is_read, r.read_at, u.email, coalesce(a.name, u.name) AS name,
                      row_number() OVER (PARTITION BY r.message_id ORDER BY r.id) AS n
               FROM admin_message_recipients r JOIN users u ON u.id = r.user_id LEFT JOIN agents a ON a.user_id = u.id
               WHERE r.message_id = ANY($1::int[])
             ) x WHERE n <= $2 ORDER BY message_id, id`,
            { bind: [ids, RECIPIENTS_SHOWN], type: QueryTypes.SELECT }
          )
        : []
      const byMessage = new Map<number, MessageRecipient[]>()
      for (const r of recips) {
        const list = byMessage.get(r.message_id) ?? []
        list.push({
          id: r.id,
          userId: r.user_id,
          isRead: !!r.is_read,
          readAt: r.read_at ? new Date(r.read_at).toISOString() : null,
          user: { email: r.email, name: r.name ?? null }
        })
        byMessage.set(r.message_id, list)
      }
      return {
        messages: rows.map((r) => ({
          id: r.id,
          title: r.title,
          message: r.message,
          priority: r.priority,
          createdAt: new Date(r.created_at).toISOString(),
          sender: r.sender_email ? { email: r.sender_email } : null,
          recipientCount: Number(r.recipient_count),
          readCount: Number(r.read_count),
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
