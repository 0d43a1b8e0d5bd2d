import Joi from 'joi'
import type { BulkListInput, SourceInput } from '../../../services/bulk/index.ts'

// One schema per endpoint of /api/bulk that takes input, bound to the type its service takes.

/** POST /api/bulk/preview and POST /api/bulk: pasted text, a CSV file's text or an .xlsx file in base64 (one of them). */
export const sourceBody = Joi.object<SourceInput>({
  text: Joi.string().allow('').max(200_000),
  csv: Joi.string().allow('').max(200_000),
  xlsx: Joi.string().base64().max(2_000_000).messages({ '*': 'The Excel file must be sent as base64' }),
  allowDuplicates: Joi.boolean().default(false),
  sms: Joi.boolean().default(false),
  expectedTotal: Joi.number().min(0).precision(2),
  pay: Joi.string().valid('wallet', 'momo').default('wallet').messages({ '*': 'pay must be wallet or momo' }),
  payerPhone: Joi.string().allow('', null).max(20),
  payerNetwork: Joi.string().allow('', null).max(20)
})
  .oxor('text', 'csv', 'xlsx')
  .options({ stripUnknown: true })

/** GET /api/bulk and GET /api/bulk/admin */
export const listQuery = Joi.object<BulkListInput>({
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20)
}).options({ stripUnknown: true })
