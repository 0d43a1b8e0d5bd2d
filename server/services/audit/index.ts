import type { Models } from '../../../models/index.ts'
import type { Ctx } from '../context.ts'
import { type AuditInsert, createAuditQueries, paidEntryValues, writtenEntryValues } from './queries.ts'

export { AUDIT_WRITTEN_VALUES, auditOfPaid, auditOfWritten } from './queries.ts'

export const AUDIT_ACTIONS = [
  'LOGIN',
  'LOGOUT',
  'USER_CREATED',
  'ORDER_CREATED',
  'PAYMENT_SUCCESS',
  'PAYMENT_FAILED',
  'AGENT_APPROVED',
  'SETTINGS_UPDATED'
] as const
export const AUDIT_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const

export interface AuditEntry {
  action: string
  resource: string
  resourceId?: string | number | null
  severity?: (typeof AUDIT_SEVERITIES)[number]
  details?: Record<string, unknown>
  /** Defaults to the acting user of the context. */
  userId?: number | null
}

const SECRET_KEY = /pass(word)?|pin|token|secret|authorization|cookie|signature|key$/i

/** Secrets never reach the log, whatever a caller puts in details. */
export function scrub(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1))
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[redacted]' : scrub(v, depth + 1)]))
}

export type AuditService = ReturnType<typeof createAuditService>

export function createAuditService({ models }: { models: Models }) {
  const q = createAuditQueries(models.AuditLog.sequelize!)
  // What `record` would write for the entry, with the context's user unless the entry names one.
  const row = (e: AuditEntry, ctx: Ctx): AuditInsert => ({
    userId: e.userId !== undefined ? e.userId : (ctx.user?.id ?? null),
    action: e.action,
    resource: e.resource,
    resourceId: e.resourceId === undefined || e.resourceId === null ? null : String(e.resourceId),
    severity: e.severity ?? 'LOW',
    details: JSON.stringify(scrub(e.details ?? {}))
  })
  return {
    /** In the caller's transaction when it has one. */
    record: async (entry: AuditEntry, ctx: Ctx = {}): Promise<void> => {
      await q.insert(row(entry, ctx), ctx.ip ?? null, ctx.transaction)
    },

    /** The parameters of `auditOfPaid`: the entry `record` would write, before the details its statement adds. */
    ofPaid: (entry: AuditEntry, ctx: Ctx = {}): unknown[] => paidEntryValues(row(entry, ctx), ctx.ip ?? null),

    /**
     * The parameters of `auditOfWritten` for an entry whose resource id is the id of a row the caller's
     * statement writes: the entry `record` would write, in that statement's round trip.
     */
    ofWritten: (entry: Omit<AuditEntry, 'resourceId'>, ctx: Ctx = {}): unknown[] => writtenEntryValues(row(entry, ctx), ctx.ip ?? null),

    /** Many entries in one INSERT, each the row `record` would write (a bulk order's lines). */
    async recordMany(entries: AuditEntry[], ctx: Ctx = {}): Promise<void> {
      if (!entries.length) return
      await q.insertMany(
        entries.map((e) => row(e, ctx)),
        ctx.ip ?? null,
        ctx.transaction
      )
    }
  }
}
