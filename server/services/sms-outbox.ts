import Joi from 'joi'
import { QueryTypes, type Sequelize } from 'sequelize'
import { badRequest } from '../lib/errors.ts'
import type { SmsService } from './sms.ts'

export interface OutboxRow {
  id: number
  toPhone: string
  message: string
  status: string
  sensitive: boolean
  createdAt: string
}

const querySchema = Joi.object({
  page: Joi.number().integer().min(1).max(100_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(25),
  phone: Joi.string().trim().pattern(/^\d{1,12}$/).allow('').default('').messages({ 'string.pattern.base': 'Phone must be digits only' }),
}).options({ stripUnknown: true })

export const HIDDEN_CODE = '(one-time code hidden: sent by the SMS provider)'

export type SmsOutboxService = ReturnType<typeof createSmsOutboxService>

/**
 * The admin's read view of sms_outbox (minimal; to be merged with the SMS delivery page). On a fresh
 * machine no provider sends these, so the page is the phone: codes show. Once a real provider sends,
 * messages carrying a one-time code are hidden, so no admin can take over an account with them.
 */
export function createSmsOutboxService({ sequelize, sms }: { sequelize: Sequelize; sms: SmsService }) {
  return {
    async list(query: unknown): Promise<{ messages: OutboxRow[]; simulated: boolean; pagination: { page: number; limit: number; total: number; totalPages: number } }> {
      const { value, error } = querySchema.validate(query ?? {}, { convert: true })
      if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
      const where = value.phone ? 'WHERE to_phone = :phone' : ''
      const [{ n }] = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM sms_outbox ${where}`, { replacements: { phone: value.phone }, type: QueryTypes.SELECT }) as [{ n: string }]
      const rows = await sequelize.query<any>(
        `SELECT id, to_phone, message, status, sensitive, created_at FROM sms_outbox ${where} ORDER BY id DESC LIMIT :limit OFFSET :offset`,
        { replacements: { phone: value.phone, limit: value.limit, offset: (value.page - 1) * value.limit }, type: QueryTypes.SELECT },
      )
      const total = Number(n)
      return {
        simulated: sms.simulated,
        messages: rows.map((r) => ({
          id: r.id,
          toPhone: r.to_phone,
          message: r.sensitive && !sms.simulated ? HIDDEN_CODE : r.message,
          status: r.status,
          sensitive: !!r.sensitive,
          createdAt: new Date(r.created_at).toISOString(),
        })),
        pagination: { page: value.page, limit: value.limit, total, totalPages: Math.max(1, Math.ceil(total / value.limit)) },
      }
    },
  }
}
