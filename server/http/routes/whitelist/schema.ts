import Joi from 'joi'
import { INVALID_FORMAT, MAX_BULK, parseWhitelistPhone } from '../../../services/whitelist/index.ts'

// One schema per endpoint of /api/ussd-whitelist; the service takes what it lets through, typed.

/** POST /api/ussd-whitelist: one number, answered in its stored form (0XXXXXXXXX). */
export const addBody = Joi.object<{ phoneNumber: string }>({
  phoneNumber: Joi.alternatives(Joi.string(), Joi.number())
    .required()
    .custom((v: unknown, h) => {
      if (!String(v).trim()) return h.error('any.required')
      return parseWhitelistPhone(v) ?? h.message({ custom: INVALID_FORMAT })
    })
    .messages({ 'any.required': 'Please enter a phone number', 'alternatives.types': 'Please enter a phone number' })
}).options({ stripUnknown: true })

/** PUT /api/ussd-whitelist/:id */
export const statusBody = Joi.object<{ isActive: boolean }>({ isActive: Joi.boolean().required() })
  .options({ stripUnknown: true })
  .messages({ 'any.required': 'isActive is required', 'boolean.base': 'isActive must be true or false' })

/** POST /api/ussd-whitelist/bulk-import: each number is judged on its own (errors listed, not thrown). */
export const bulkBody = Joi.object<{ phoneNumbers: Array<string | number> }>({
  phoneNumbers: Joi.array()
    .items(Joi.alternatives(Joi.string().allow(''), Joi.number()))
    .max(MAX_BULK)
    .required()
})
  .options({ stripUnknown: true })
  .messages({
    'any.required': 'Please enter phone numbers',
    'array.max': `At most ${MAX_BULK} numbers per import`,
    'array.base': 'phoneNumbers must be a list'
  })

/** `:id` of /api/ussd-whitelist/:id */
export const entryParams = Joi.object<{ id: number }>({
  id: Joi.number().integer().min(1).required().messages({ '*': 'Invalid entry id' })
}).options({ stripUnknown: true })
