import Joi from 'joi'
import { QueryTypes, type Sequelize } from 'sequelize'
import type { AuditLogRow } from '../../../models/index.ts'
import { AUDIT_ACTIONS, AUDIT_SEVERITIES, type AuditService } from './index.ts'
import type { Ctx } from '../context.ts'
import { dateParam, pageInfo, rangeSql, toInt, toRange, validate } from '../reports/range.ts'

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

export const EXACT_COUNT_LIMIT = 10_000

export type AuditFilters = { [K in keyof typeof filterKeys]?: any }

/** An entry as the API speaks it: the row, with a numeric id, an ISO time and who acted. */
export interface AuditLogView extends Omit<AuditLogRow, 'id' | 'timestamp' | 'user'> {
  id: number
  timestamp: string
  user: { email: string; role: string } | null
}

function whereOf(f: AuditFilters) {
  const where: string[] = []
  const repl: Record<string, unknown> = {}
  if (f.userId !== undefined && f.userId !== '') {
    where.push('l.user_id = :userId')
    repl.userId = Number(f.userId)
  }
  for (const [key, col] of [
    ['action', 'action'],
    ['resource', 'resource'],
    ['resourceId', 'resource_id'],
    ['severity', 'severity']
  ] as const) {
    if (f[key]) {
      where.push(`l.${col} = :${key}`)
      repl[key] = f[key]
    }
  }
  if (f.ipAddress) {
    // Express reports IPv4 clients on a dual-stack socket as ::ffff:a.b.c.d.
    where.push('l.ip_address IN (:ip, :ipMapped)')
    repl.ip = f.ipAddress
    repl.ipMapped = `::ffff:${f.ipAddress}`
  }
  rangeSql('l.timestamp', toRange(f.startDate, f.endDate), where, repl)
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', repl }
}

const SELECT = `SELECT l.id, l.timestamp, l.user_id, l.action, l.resource, l.resource_id, l.severity, l.ip_address, l.details,
  u.email AS user_email, u.role AS user_role
  FROM audit_logs l LEFT JOIN users u ON u.id = l.user_id`

function view(r: any): AuditLogView {
  return {
    id: Number(r.id),
    timestamp: new Date(r.timestamp).toISOString(),
    userId: r.user_id ?? null,
    user: r.user_email ? { email: r.user_email, role: r.user_role } : null,
    action: r.action,
    resource: r.resource,
    resourceId: r.resource_id ?? null,
    severity: r.severity,
    ipAddress: r.ip_address ?? null,
    details: r.details ?? {}
  }
}

export function createAuditLogsService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements })

  /**
   * Exact up to EXACT_COUNT_LIMIT matches; beyond that the planner's estimate (counting millions of
   * rows on every page view would cost more than the page itself), flagged as estimated.
   */
  async function total(sql: string, repl: Record<string, unknown>) {
    const [c] = await q<{ n: string }>(`SELECT count(*) AS n FROM (SELECT 1 FROM audit_logs l ${sql} LIMIT ${EXACT_COUNT_LIMIT + 1}) x`, repl)
    const n = toInt(c?.n)
    if (n <= EXACT_COUNT_LIMIT) return { total: n, estimated: false }
    const [plan] = await q<any>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM audit_logs l ${sql}`, repl)
    const rows = Number(plan?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0)
    return { total: Math.max(Math.round(rows), EXACT_COUNT_LIMIT + 1), estimated: true }
  }

  return {
    async list(input: unknown) {
      const f = validate<AuditFilters & { page: number; limit: number }>(listSchema, input)
      const { sql, repl } = whereOf(f)
      const [rows, count] = await Promise.all([
        q<any>(`${SELECT} ${sql} ORDER BY l.timestamp DESC, l.id DESC LIMIT :limit OFFSET :offset`, {
          ...repl,
          limit: f.limit,
          offset: (f.page - 1) * f.limit
        }),
        total(sql, repl)
      ])
      return { logs: rows.map(view), pagination: { ...pageInfo(f.page, f.limit, count.total), estimated: count.estimated } }
    },

    /** The actions present in the log (spec list first), found by skipping along the action index. */
    async actions(): Promise<string[]> {
      const rows = await q<{ action: string }>(
        `WITH RECURSIVE a AS (
           (SELECT action FROM audit_logs ORDER BY action LIMIT 1)
           UNION ALL
           SELECT (SELECT action FROM audit_logs WHERE action > a.action ORDER BY action LIMIT 1) FROM a WHERE a.action IS NOT NULL
         ) SELECT action FROM a WHERE action IS NOT NULL`,
        {}
      )
      const found = rows.map((r) => r.action).filter((a) => !(AUDIT_ACTIONS as readonly string[]).includes(a))
      return [...AUDIT_ACTIONS, ...found]
    },

    /** Validates an export request and records that it happened; rows() then yields every match, newest first. */
    async startExport(input: unknown, ctx: Ctx) {
      const v = validate<AuditFilters & { format: 'csv' | 'json'; filters: AuditFilters }>(exportSchema, input)
      const { format, filters: nested, ...top } = v
      const filters: AuditFilters = { ...nested, ...Object.fromEntries(Object.entries(top).filter(([, x]) => x !== undefined && x !== '')) }
      const { sql, repl } = whereOf(filters)
      await audit.record({ action: 'AUDIT_LOGS_EXPORTED', resource: 'SYSTEM', severity: 'MEDIUM', details: { format, filters } }, ctx)
      // Newest first like the list, keyset on (timestamp, id); the timestamp travels as text so
      // PostgreSQL's microseconds survive the round trip (a JS Date would drop them).
      async function* rows(batch = 5000): AsyncGenerator<AuditLogView> {
        let after: { ts: string; id: string } | null = null
        for (;;) {
          const cond = after ? `${sql ? `${sql} AND` : 'WHERE'} (l.timestamp, l.id) < (:afterTs::timestamptz, :afterId)` : sql
          const page: any[] = await q<any>(
            `${SELECT.replace('SELECT ', 'SELECT l.timestamp::text AS ts_key, ')} ${cond} ORDER BY l.timestamp DESC, l.id DESC LIMIT :batch`,
            {
              ...repl,
              batch,
              afterTs: after?.ts ?? null,
              afterId: after?.id ?? null
            }
          )
          for (const r of page) yield view(r)
          if (page.length < batch) return
          const last = page[page.length - 1]
          after = { ts: last.ts_key, id: String(last.id) }
        }
      }
      return { format, filters, rows }
    }
  }
}
