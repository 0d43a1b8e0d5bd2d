import Joi from 'joi'
import { AUDIT_SEVERITIES } from '../../../services/audit/index.ts'
import type { AuditExportInput, AuditListInput } from '../../../services/audit/logs.ts'
import { dateParam } from '../../../services/reports/range.ts'

// One schema per endpoint of /api/admin/audit-logs, bound to the type its service takes. An unknown
// key is refused (400 'x is not allowed'), as the trail's reads always did.

const upperWord = Joi.string()
  .trim()
  .uppercase()
  .allow('')
  .max(60)
  .pattern(/^[A-Z0-9_]*$/)
  .messages({ 'string.pattern.base': '{{#label}} must be letters, digits or underscores' })

const filterKeys = {
  userId: Joi.alternatives().try(Joi.number().integer().min(1), Joi.string().valid('')).messages({ 'alternatives.match': 'userId must be a whole number' }),
  action: upperWord,
  resource: upperWord,
  resourceId: Joi.string().trim().allow('').max(100),
  severity: Joi.string()
    .trim()
    .uppercase()
    .allow('')
    .valid(...AUDIT_SEVERITIES, ''),
  startDate: dateParam,
  endDate: dateParam,
  ipAddress: Joi.string()
    .trim()
    .allow('')
    .max(64)
    .pattern(/^[0-9a-fA-F:.]*$/)
    .messages({ 'string.pattern.base': 'ipAddress must be an IP address' })
}

/** GET /api/admin/audit-logs */
export const listQuery = Joi.object<AuditListInput>({
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(50),
  ...filterKeys
})

/** POST /api/admin/audit-logs/export */
export const exportBody = Joi.object<AuditExportInput>({
  format: Joi.string().trim().lowercase().valid('csv', 'json').default('csv').messages({ 'any.only': 'format must be csv or json' }),
  filters: Joi.object(filterKeys).default({}),
  ...filterKeys
})
