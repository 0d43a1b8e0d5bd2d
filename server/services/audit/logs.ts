import type { Sequelize } from 'sequelize'
import { AUDIT_ACTIONS, type AuditService } from './index.ts'
import type { Ctx } from '../context.ts'
import { pageInfo } from '../reports/range.ts'
import { createAuditQueries, type AuditFilters, type AuditLogView, type ExportCursor } from './queries.ts'

export type { AuditLogView } from './queries.ts'

// Reading and exporting the audit trail. Writing is index.ts; nothing here changes or removes a row.

/** GET /api/admin/audit-logs: a page of the filtered trail. */
export type AuditListInput = AuditFilters & { page: number; limit: number }
/** POST /api/admin/audit-logs/export: filters at the top level win over the nested `filters`. */
export type AuditExportInput = AuditFilters & { format: 'csv' | 'json'; filters: AuditFilters }

export function createAuditLogsService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  const queries = createAuditQueries(sequelize)

  return {
    async list(f: AuditListInput) {
      const count = await queries.page(f, f.limit, (f.page - 1) * f.limit)
      return { logs: count.entries, pagination: { ...pageInfo(f.page, f.limit, count.total), estimated: count.estimated } }
    },

    /** The actions present in the log (spec list first), found by skipping along the action index. */
    async actions(): Promise<string[]> {
      const present = await queries.actions()
      const found = present.filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a))
      return [...AUDIT_ACTIONS, ...found]
    },

    /** Records that an export happened; rows() then yields every match, newest first. */
    async startExport(v: AuditExportInput, ctx: Ctx) {
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
