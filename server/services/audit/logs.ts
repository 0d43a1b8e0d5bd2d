import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import { AUDIT_ACTIONS, AUDIT_SEVERITIES, type AuditService } from './index.ts'
import type { Ctx } from '../context.ts'
import { dateParam, pageInfo, validate } from '../reports/range.ts'
import { createAuditQueries, type AuditFilters, type AuditLogView, type ExportCursor } from './queries.ts'

export type { AuditLogView } from './queries.ts'

// Reading and exporting the audit trail. Writing is audit.ts; nothing here changes or removes a row.

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

export const listSchema = Joi.object({
  page: Joi.number().integer().min(1).max(1_000_000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(50),
  ...filterKeys
})

export const exportSchema = Joi.object({
  format: Joi.string().trim().lowercase().valid('csv', 'json').default('csv').messages({ 'any.only': 'format must be csv or json' }),
  filters: Joi.object(filterKeys).default({}),
  ...filterKeys
})

export function createAuditLogsService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  const queries = createAuditQueries(sequelize)

  return {
    async list(input: unknown) {
      const f = validate<AuditFilters & { page: number; limit: number }>(listSchema, input)
      const count = await queries.page(f, f.limit, (f.page - 1) * f.limit)
      return { logs: count.entries, pagination: { ...pageInfo(f.page, f.limit, count.total), estimated: count.estimated } }
    },

    /** The actions present in the log (spec list first), found by skipping along the action index. */
    async actions(): Promise<string[]> {
      const present = await queries.actions()
      const found = present.filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a))
      return [...AUDIT_ACTIONS, ...found]
    },

    /** Validates an export request and records that it happened; rows() then yields every match, newest first. */
    async startExport(input: unknown, ctx: Ctx) {
      const v = validate<AuditFilters & { format: 'csv' | 'json'; filters: AuditFilters }>(exportSchema, input)
      const { format, filters: nested, ...top } = v
      const filters: AuditFilters = { ...nested, ...Object.fromEntries(Object.entries(top).filter(([, x]) => x !== undefined && x !== '')) }
      await audit.record({ action: 'AUDIT_LOGS_EXPORTED', resource: 'SYSTEM', severity: 'MEDIUM', details: { format, filters } }, ctx)
      // Newest first like the list, in batches along the keyset (queries.ts keeps the microseconds).
      async function* rows(batch = 5000): AsyncGenerator<AuditLogView> {
        let after: ExportCursor | null = null
        for (;;) {
          const page = await queries.exportPage(filters, after, batch)
          yield* page.entries
          if (page.entries.length < batch) return
          after = page.next
        }
      }
      return { format, filters, rows }
    }
  }
}
