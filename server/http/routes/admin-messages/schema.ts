import Joi from 'joi'
import { type MessageListInput, PRIORITIES, type SendInput } from '../../../services/messages/index.ts'

// One schema per endpoint of the admins' side of /api/admin-messages, bound to the type its service takes.

/** POST /api/admin-messages */
export const sendBody = Joi.object<SendInput>({
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

/** GET /api/admin-messages */
export const listQuery = Joi.object<MessageListInput>({
  priority: Joi.string()
    .trim()
    .uppercase()
    .valid(...PRIORITIES, 'ALL', '')
    .default(''),
  page: Joi.number().integer().min(1).max(100_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(50)
}).options({ stripUnknown: true })
