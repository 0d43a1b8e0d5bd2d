import { preparedFor } from '../../../models/prepared.ts'
import type { Models } from '../../../models/index.ts'
import type { Ctx } from '../context.ts'

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
  const run = preparedFor(models.AuditLog.sequelize!)
  return {
    /** One named INSERT (no model instance, ADR 0024): every settlement and delivery writes one. */
    async record(entry: AuditEntry, ctx: Ctx = {}): Promise<void> {
      await run(
        `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`,
        [
          new Date(),
          entry.userId !== undefined ? entry.userId : (ctx.user?.id ?? null),
          entry.action,
          entry.resource,
          entry.resourceId === undefined || entry.resourceId === null ? null : String(entry.resourceId),
          entry.severity ?? 'LOW',
          ctx.ip ?? null,
          JSON.stringify(scrub(entry.details ?? {}))
        ],
        ctx.transaction
      )
    },

    /** Many entries in one INSERT, each the row `record` would write (a bulk order's lines). */
    async recordMany(entries: AuditEntry[], ctx: Ctx = {}): Promise<void> {
      if (!entries.length) return
      await models.AuditLog.sequelize!.query(
        `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
         SELECT now(), u, a, r, i, s, :ip, d::jsonb
           FROM unnest(ARRAY[:userId]::int[], ARRAY[:action]::text[], ARRAY[:resource]::text[], ARRAY[:resourceId]::text[], ARRAY[:severity]::text[], ARRAY[:details]::text[]) AS e(u, a, r, i, s, d)`,
        {
          replacements: {
            ip: ctx.ip ?? null,
            userId: entries.map((e) => (e.userId !== undefined ? e.userId : (ctx.user?.id ?? null))),
            action: entries.map((e) => e.action),
            resource: entries.map((e) => e.resource),
            resourceId: entries.map((e) => (e.resourceId === undefined || e.resourceId === null ? null : String(e.resourceId))),
            severity: entries.map((e) => e.severity ?? 'LOW'),
            details: entries.map((e) => JSON.stringify(scrub(e.details ?? {})))
          },
          transaction: ctx.transaction
        }
      )
    }
  }
}
