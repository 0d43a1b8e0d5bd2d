import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import { rangeSql, toInt, toRange } from '../reports/range.ts'
import type { AuditLogRow } from '../../../models/index.ts'

// The audit trail's statements: its two INSERTs (index.ts decides what goes in) and its reads,
// returning typed camelCase entries.

export const EXACT_COUNT_LIMIT = 10_000

/** The list's and the export's filters, as their schemas let them through (logs.ts). */
export interface AuditFilters {
  userId?: number | ''
  action?: string
  resource?: string
  resourceId?: string
  severity?: string
  startDate?: string
  endDate?: string
  ipAddress?: string
}

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

/** Newest first, keyset on (timestamp, id): the timestamp travels as text so PostgreSQL's microseconds survive. */
export interface ExportCursor {
  ts: string
  id: string
}

/** An entry as it is written: the acting user and place already settled, details already scrubbed JSON. */
export interface AuditInsert {
  userId: number | null
  action: string
  resource: string
  resourceId: string | null
  severity: string
  details: string
}

const INSERT_ONE = `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb)`

/**
 * The entry of a row written by the same statement, as the body of a data-modifying CTE: its
 * resource id is that row's `id` (read from `source`, a CTE of that statement), its other columns the
 * parameters from `$first` on, in `writtenEntryValues`' order. A row and its entry in one round trip
 * (an order and its ORDER_CREATED, ADR 0046).
 */
export const auditOfWritten = (source: string, first: number) =>
  `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
    SELECT $${first}::timestamptz, $${first + 1}::int, $${first + 2}::text, $${first + 3}::text, ${source}.id::text, $${first + 4}::text, $${first + 5}::text, $${first + 6}::jsonb
      FROM ${source}`

/** How many parameters `auditOfWritten` takes (a statement's next parameters follow them). */
export const AUDIT_WRITTEN_VALUES = 7

/** `auditOfWritten`'s parameters for an entry (its resource id comes from the written row). */
export const writtenEntryValues = (e: AuditInsert, ipAddress: string | null): unknown[] => [
  new Date(),
  e.userId,
  e.action,
  e.resource,
  e.severity,
  ipAddress,
  e.details
]

/** An entry as `record` writes it, as parameters of `auditOfPaid`. */
export const paidEntryValues = (e: AuditInsert, ipAddress: string | null): unknown[] => [
  new Date(),
  e.userId,
  e.action,
  e.resource,
  e.resourceId,
  e.severity,
  ipAddress,
  e.details
]

/**
 * An entry written by a statement only for the rows of `source` (a CTE of that statement: none, no entry), as the body
 * of a data-modifying CTE: its columns the parameters from `$first` on, in `paidEntryValues`' order, its details
 * merged with `detailsSql` (a jsonb built from what the statement itself wrote). A wallet order's PAYMENT_SUCCESS,
 * written by the order's own statement exactly when the wallet paid it (ADR 0079).
 */
export const auditOfPaid = (source: string, first: number, detailsSql: string) =>
  `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
    SELECT $${first}::timestamptz, $${first + 1}::int, $${first + 2}::text, $${first + 3}::text, $${first + 4}::text, $${first + 5}::text, $${first + 6}::text,
      $${first + 7}::jsonb || ${detailsSql}
      FROM ${source} RETURNING id`

export function createAuditQueries(sequelize: Sequelize) {
  const q = <T extends object>(sql: string, replacements: Record<string, unknown>) => sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements })
  const run = preparedFor(sequelize)

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
    /** One named INSERT (no model instance, ADR 0024): every settlement and delivery writes one. */
    insert: async (e: AuditInsert, ipAddress: string | null, transaction?: Transaction): Promise<void> => {
      await run(INSERT_ONE, [new Date(), e.userId, e.action, e.resource, e.resourceId, e.severity, ipAddress, e.details], transaction)
    },
    /** Many entries from one place in one INSERT (a bulk order's lines). */
    insertMany: async (entries: AuditInsert[], ipAddress: string | null, transaction?: Transaction): Promise<void> => {
      await sequelize.query(
        `INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
         SELECT now(), u, a, r, i, s, :ip, d::jsonb
           FROM unnest(ARRAY[:userId]::int[], ARRAY[:action]::text[], ARRAY[:resource]::text[], ARRAY[:resourceId]::text[], ARRAY[:severity]::text[], ARRAY[:details]::text[]) AS e(u, a, r, i, s, d)`,
        {
          replacements: {
            ip: ipAddress,
            userId: entries.map((e) => e.userId),
            action: entries.map((e) => e.action),
            resource: entries.map((e) => e.resource),
            resourceId: entries.map((e) => e.resourceId),
            severity: entries.map((e) => e.severity),
            details: entries.map((e) => e.details)
          },
          transaction
        }
      )
    },
    /** One page of entries matching the filters, newest first, and how many match. */
    page: async (f: AuditFilters, limit: number, offset: number) => {
      const { sql, repl } = whereOf(f)
      const [rows, count] = await Promise.all([
        q<any>(`${SELECT} ${sql} ORDER BY l.timestamp DESC, l.id DESC LIMIT :limit OFFSET :offset`, { ...repl, limit, offset }),
        total(sql, repl)
      ])
      return { entries: rows.map(view), ...count }
    },
    /** The actions present in the log, found by skipping along the action index. */
    actions: async (): Promise<string[]> =>
      (
        await q<{ action: string }>(
          `WITH RECURSIVE a AS (
             (SELECT action FROM audit_logs ORDER BY action LIMIT 1)
             UNION ALL
             SELECT (SELECT action FROM audit_logs WHERE action > a.action ORDER BY action LIMIT 1) FROM a WHERE a.action IS NOT NULL
           ) SELECT action FROM a WHERE action IS NOT NULL`,
          {}
        )
      ).map((r) => r.action),
    /** The next `batch` entries after the cursor (from the newest without one), with the cursor past them. */
    exportPage: async (f: AuditFilters, after: ExportCursor | null, batch: number) => {
      const { sql, repl } = whereOf(f)
      const cond = after ? `${sql ? `${sql} AND` : 'WHERE'} (l.timestamp, l.id) < (:afterTs::timestamptz, :afterId)` : sql
      const page = await q<any>(
        `${SELECT.replace('SELECT ', 'SELECT l.timestamp::text AS ts_key, ')} ${cond} ORDER BY l.timestamp DESC, l.id DESC LIMIT :batch`,
        {
          ...repl,
          batch,
          afterTs: after?.ts ?? null,
          afterId: after?.id ?? null
        }
      )
      const last = page[page.length - 1]
      return { entries: page.map(view), next: last ? { ts: String(last.ts_key), id: String(last.id) } : null }
    }
  }
}
