import Joi from 'joi'
import { QueryTypes, type Sequelize } from 'sequelize'
import { toGhs } from '../../lib/money.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { dateParam, dayRangeSql, pageInfo, rangeSql, toInt, toRange, validate, whereSql, wholeDays, type Range } from '../reports/range.ts'
import { NETWORKS } from '../../lib/vocabulary.ts'
import { parentMarginsSql } from './parent-margins.ts'

// Reports over commissions (written by services.commissions when an order is paid) and orders.
// Every figure is one SQL aggregate over the whole table, never a sum of one page.
// Revenue of agents and networks comes from SUCCESS orders; commission figures from commissions;
// parents' margins on sub-agent orders from the earnings ledger, as a figure of their own.

const range = { startDate: dateParam, endDate: dateParam }
const network = Joi.string()
  .trim()
  .uppercase()
  .allow('')
  .valid(...NETWORKS, '')
const notes = Joi.string().trim().allow('').max(500)

const schemas = {
  summary: Joi.object(range),
  list: Joi.object({ page: Joi.number().integer().min(1).max(1_000_000).default(1), limit: Joi.number().integer().min(1).max(100).default(20), ...range }),
  archive: Joi.object({
    commissionIds: Joi.array().items(Joi.number().integer().min(1)).min(1).max(10_000).unique().required(),
    notes
  }).messages({
    'array.min': 'Please select commissions to archive',
    'any.required': 'Please select commissions to archive',
    'array.unique': 'Each commission may be listed once'
  }),
  archiveAll: Joi.object({ notes }),
  analytics: Joi.object({
    groupBy: Joi.string()
      .trim()
      .lowercase()
      .valid('day', 'week', 'month', 'agent', 'network')
      .default('day')
      .messages({ 'any.only': 'groupBy must be one of day, week, month, agent, network' }),
    scope: Joi.string().trim().lowercase().valid('all', 'current', 'archived').default('all'),
    ...range
  }),
  leaderboard: Joi.object({ limit: Joi.number().integer().min(1).max(100).default(10), network, ...range }),
  networks: Joi.object(range),
  archived: Joi.object({ page: Joi.number().integer().min(1).max(1_000_000).default(1), limit: Joi.number().integer().min(1).max(100).default(20) })
}

export type GroupBy = 'day' | 'week' | 'month' | 'agent' | 'network'

const ghs = (pesewas: unknown) => toGhs(toInt(pesewas)) ?? 0
const avg = (totalPesewas: unknown, count: unknown) => (toInt(count) ? ghs(Math.round(toInt(totalPesewas) / toInt(count))) : 0)
export const defaultArchiveNote = (now = new Date()) => `Archived on ${now.toLocaleDateString('en-GH', { timeZone: 'Africa/Accra' })}`

/** Group key per groupBy over commissions `c` (raw values; formatted once per group, not per row). */
const GROUP_KEY: Record<GroupBy, { raw: string; rollup: string; text: string }> = {
  day: { raw: `date_trunc('day', c.created_at AT TIME ZONE 'UTC')`, rollup: 'c.day', text: `to_char(k, 'YYYY-MM-DD')` },
  week: { raw: `date_trunc('week', c.created_at AT TIME ZONE 'UTC')`, rollup: `date_trunc('week', c.day)`, text: `to_char(k, 'YYYY-MM-DD')` },
  month: { raw: `date_trunc('month', c.created_at AT TIME ZONE 'UTC')`, rollup: `date_trunc('month', c.day)`, text: `to_char(k, 'YYYY-MM')` },
  agent: { raw: 'c.agent_id', rollup: 'NULLIF(c.agent_id, 0)', text: `COALESCE(k::text, 'direct')` },
  network: { raw: 'c.network', rollup: 'c.network', text: 'k' }
}

/**
 * Where commission figures come from: the per-day / per-agent running totals (migration 061) when the
 * range is whole days, else the commissions table itself. Both give the same sums (tests compare them).
 */
function commissionSource(range: Range, scope: 'all' | 'current' | 'archived', byAgent = false) {
  const where: string[] = []
  const repl: Record<string, unknown> = {}
  if (scope !== 'all') where.push(`c.archived = ${scope === 'archived'}`)
  if (wholeDays(range) && !(byAgent && (range.from || range.to))) {
    if (!byAgent) dayRangeSql('c.day', range, where, repl)
    return {
      rollup: true,
      from: byAgent ? 'commission_by_agent c' : 'commission_daily c',
      c: 'c.commission',
      r: 'c.revenue',
      n: 'c.n',
      where: whereSql(where),
      repl
    }
  }
  rangeSql('c.created_at', range, where, repl)
  return { rollup: false, from: 'commissions c', c: 'c.commission_amount_pesewas', r: 'c.original_amount_pesewas', n: '1', where: whereSql(where), repl }
}

function commissionView(r: any) {
  const agent = r.agent_id ? { id: r.agent_id, name: r.agent_name, phone: r.agent_phone } : null
  return {
    id: r.id,
    createdAt: new Date(r.created_at).toISOString(),
    originalAmount: ghs(r.original_amount_pesewas),
    commissionAmount: ghs(r.commission_amount_pesewas),
    commissionType: r.commission_type,
    network: r.network,
    paymentStatus: r.payment_status,
    archived: !!r.archived,
    archivedAt: r.archived_at ? new Date(r.archived_at).toISOString() : null,
    archiveNotes: r.archive_notes ?? null,
    agentName: agent?.name ?? null,
    agentPhone: agent?.phone ?? null,
    order: {
      id: r.order_id,
      recipientNumber: r.recipient_number ?? null,
      dataSizeMb: r.data_size_mb ?? null,
      packageName: r.package_name ?? null,
      user: r.user_id || agent ? { id: r.user_id ?? null, email: r.user_email ?? null, agent } : null
    }
  }
}
export type CommissionView = ReturnType<typeof commissionView>

const ROWS = `SELECT c.*, o.recipient_number, o.data_size_mb, o.package_name, o.user_id, u.email AS user_email, a.name AS agent_name, a.phone AS agent_phone`
const JOINS = `LEFT JOIN orders o ON o.id = c.order_id LEFT JOIN users u ON u.id = o.user_id LEFT JOIN agents a ON a.id = c.agent_id`

export function createCommissionReportsService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
    sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements })

  /** WHERE for commissions `c` over a date range and archived scope. */
  function commissionWhere(input: { startDate?: unknown; endDate?: unknown }, scope: 'all' | 'current' | 'archived') {
    const where: string[] = []
    const repl: Record<string, unknown> = {}
    if (scope !== 'all') where.push(`c.archived = ${scope === 'archived'}`)
    rangeSql('c.created_at', toRange(input.startDate, input.endDate), where, repl)
    return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', repl }
  }

  /** One page of commissions `c` (already filtered and ordered) with their order, buyer and agent. */
  async function page(filter: string, repl: Record<string, unknown>, order: string, limit: number, offset: number) {
    const rows = await q(`${ROWS} FROM (SELECT * FROM commissions c ${filter} ORDER BY ${order} LIMIT :limit OFFSET :offset) c ${JOINS} ORDER BY ${order}`, {
      ...repl,
      limit,
      offset
    })
    return rows.map(commissionView)
  }

  async function* stream(scope: 'current' | 'archived', batch = 2000): AsyncGenerator<CommissionView> {
    let afterId = 0
    for (;;) {
      const rows = await page(`WHERE c.archived = ${scope === 'archived'} AND c.id > :afterId`, { afterId }, 'c.id ASC', batch, 0)
      yield* rows
      if (rows.length < batch) return
      afterId = rows[rows.length - 1]!.id
    }
  }

  async function archiveWhere(condition: string, repl: Record<string, unknown>, note: string | undefined, ctx: Ctx, kind: string) {
    const notes = note?.trim() || defaultArchiveNote()
    // `archived = false` in the same statement makes a repeat (or a racing twin) move nothing twice.
    const [, affected] = await sequelize.query(
      `UPDATE commissions c SET archived = true, archived_at = now(), archive_notes = :notes WHERE c.archived = false ${condition}`,
      { replacements: { ...repl, notes }, type: QueryTypes.UPDATE }
    )
    const archivedCount = Number(affected ?? 0)
    await audit.record(
      {
        action: 'COMMISSIONS_ARCHIVED',
        resource: 'SYSTEM',
        severity: 'MEDIUM',
        details: { kind, archivedCount, notes, ...(repl.ids ? { requested: (repl.ids as number[]).length } : {}) }
      },
      ctx
    )
    return { archivedCount, message: archivedCount === 1 ? '1 commission archived' : `${archivedCount} commissions archived` }
  }

  async function analytics(input: unknown) {
    const v = validate<{ groupBy: GroupBy; scope: 'all' | 'current' | 'archived'; startDate?: string; endDate?: string }>(schemas.analytics, input)
    const byAgent = v.groupBy === 'agent'
    const range = toRange(v.startDate, v.endDate)
    const src = commissionSource(range, v.scope, byAgent)
    const key = GROUP_KEY[v.groupBy]
    const marginRepl: Record<string, unknown> = {}
    const margins = q(parentMarginsSql(range, marginRepl), marginRepl)
    const raw = src.rollup ? key.rollup : key.raw
    // One pass: the groups and the grand total (the empty grouping set) together.
    const rows = await q(
      `SELECT ${key.text} AS key, g.is_total, g.commission, g.revenue, g.n${byAgent ? ', a.name AS agent_name' : ''}
       FROM (SELECT ${raw} AS k, GROUPING(${raw}) AS is_total,
                    sum(${src.c}) AS commission, sum(${src.r}) AS revenue, sum(${src.n}) AS n
             FROM ${src.from} ${src.where}
             GROUP BY GROUPING SETS ((${raw}), ())) g
       ${byAgent ? 'LEFT JOIN agents a ON a.id = g.k' : ''}
       WHERE g.n <> 0 OR g.is_total = 1`,
      src.repl
    )
    const total = rows.find((r) => toInt(r.is_total) === 1)
    const [m] = await margins
    const groups = rows
      .filter((r) => toInt(r.is_total) === 0)
      .map((r) => ({
        key: String(r.key),
        label: byAgent ? (r.agent_name ?? 'Direct Customer') : v.groupBy === 'week' ? `Week of ${r.key}` : String(r.key),
        totalCommission: ghs(r.commission),
        totalRevenue: ghs(r.revenue),
        totalOrders: toInt(r.n),
        averageCommission: avg(r.commission, r.n),
        _commission: toInt(r.commission)
      }))
    groups.sort(
      byAgent || v.groupBy === 'network' ? (a, b) => b._commission - a._commission || a.key.localeCompare(b.key) : (a, b) => a.key.localeCompare(b.key)
    )
    return {
      groupBy: v.groupBy,
      scope: v.scope,
      totalStats: {
        totalCommission: ghs(total?.commission),
        totalRevenue: ghs(total?.revenue),
        totalOrders: toInt(total?.n),
        averageCommission: avg(total?.commission, total?.n),
        // not archived, so the scope does not apply; see parent-margins.ts
        totalParentMargin: ghs(m.margin),
        parentMarginOrders: toInt(m.n)
      },
      groupByData: groups.map(({ _commission, ...g }) => g)
    }
  }

  async function leaderboard(input: unknown) {
    const v = validate<{ limit: number; network?: string; startDate?: string; endDate?: string }>(schemas.leaderboard, input)
    const range = toRange(v.startDate, v.endDate)
    const repl: Record<string, unknown> = { limit: v.limit, network: v.network || null }
    const net = (col: string) => (v.network ? ` AND ${col} = :network` : '')
    let o: string
    let c: string
    if (!range.from && !range.to) {
      // All time: the per-agent running totals (migration 061).
      o = `SELECT agent_id, sum(revenue) AS revenue, sum(n) AS n FROM order_revenue_by_agent WHERE agent_id <> 0${net('network')} GROUP BY agent_id HAVING sum(n) > 0`
      c = `SELECT agent_id, sum(commission) AS commission FROM commission_by_agent WHERE agent_id <> 0${net('network')} GROUP BY agent_id`
    } else {
      const ow: string[] = [`o.payment_status = 'SUCCESS'`, 'o.agent_id IS NOT NULL']
      const cw: string[] = ['c.agent_id IS NOT NULL']
      rangeSql('o.created_at', range, ow, repl, 'o')
      rangeSql('c.created_at', range, cw, repl, 'c')
      o = `SELECT o.agent_id, sum(o.amount_pesewas) AS revenue, count(*) AS n FROM orders o WHERE ${ow.join(' AND ')}${net('o.network')} GROUP BY o.agent_id`
      c = `SELECT c.agent_id, sum(c.commission_amount_pesewas) AS commission FROM commissions c WHERE ${cw.join(' AND ')}${net('c.network')} GROUP BY c.agent_id`
    }
    const m = parentMarginsSql(range, repl, { network: v.network || null, byAgent: true })
    // Agents rank by their own paid orders (a sub-agent's sale is the sub-agent's); a parent's margins on
    // those sales are their own column, and their total covers every parent, selling or not.
    const [row] = await q(
      `WITH o AS (${o}), c AS (${c}), m AS (${m}),
            t AS (SELECT o.agent_id, o.revenue, o.n, COALESCE(c.commission, 0) AS commission, COALESCE(m.margin, 0) AS margin
                    FROM o LEFT JOIN c USING (agent_id) LEFT JOIN m USING (agent_id))
       SELECT (SELECT json_build_object('agents', count(*), 'highest', max(revenue), 'lowest', min(revenue), 'average', avg(revenue),
                 'mostOrders', max(n), 'revenue', sum(revenue), 'orders', sum(n), 'commission', sum(commission)) FROM t) AS stats,
              (SELECT json_build_object('margin', COALESCE(sum(margin), 0), 'n', COALESCE(sum(n), 0)) FROM m) AS margins,
              (SELECT COALESCE(json_agg(x), '[]') FROM (
                 SELECT t.agent_id, t.revenue, t.n, t.commission, t.margin, a.name, a.phone, tr.name AS tier
                   FROM t JOIN agents a ON a.id = t.agent_id
                   LEFT JOIN tiers tr ON tr.id = COALESCE(a.tier_id, (SELECT id FROM tiers ORDER BY position LIMIT 1))
                 ORDER BY t.revenue DESC, t.n DESC, t.agent_id ASC LIMIT :limit) x) AS rows`,
      repl
    )
    const s = row.stats
    const mostOrders = toInt(s.mostOrders)
    return {
      leaderboard: (row.rows as any[]).map((r, i) => ({
        rank: i + 1,
        agentId: r.agent_id,
        agentName: r.name,
        agentPhone: r.phone,
        tier: (r.tier as string | null) ?? null,
        totalRevenue: ghs(r.revenue),
        totalOrders: toInt(r.n),
        totalCommission: ghs(r.commission),
        parentMargin: ghs(r.margin)
      })),
      totalAgents: toInt(s.agents),
      stats: {
        highestRevenue: ghs(s.highest),
        lowestRevenue: ghs(s.lowest),
        averageRevenue: ghs(Math.round(Number(s.average ?? 0))),
        mostOrders,
        totalRevenue: ghs(s.revenue),
        totalOrders: toInt(s.orders),
        totalCommission: ghs(s.commission),
        totalParentMargin: ghs(row.margins.margin),
        parentMarginOrders: toInt(row.margins.n)
      }
    }
  }

  return {
    /** Commissions page cards: current (not archived) commissions in the range; by-date over the range or the last 30 days. */
    async summary(input: unknown) {
      const v = validate<{ startDate?: string; endDate?: string }>(schemas.summary, input)
      const range = toRange(v.startDate, v.endDate)
      const src = commissionSource(range, 'current')
      const days = v.startDate || v.endDate ? src : commissionSource(toRange(new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10), null), 'current')
      const dayKey = days.rollup ? 'c.day' : `date_trunc('day', c.created_at AT TIME ZONE 'UTC')`
      const { sql, repl } = commissionWhere(v, 'current')
      const marginRepl: Record<string, unknown> = {}
      const [[t], byDay, recent, [m]] = await Promise.all([
        q(`SELECT sum(${src.c}) AS commission, sum(${src.r}) AS revenue, sum(${src.n}) AS n FROM ${src.from} ${src.where}`, src.repl),
        q(
          `SELECT to_char(k, 'YYYY-MM-DD') AS date, commission, n FROM (
             SELECT ${dayKey} AS k, sum(${days.c}) AS commission, sum(${days.n}) AS n FROM ${days.from} ${days.where} GROUP BY 1) d
           WHERE n <> 0 ORDER BY k`,
          days.repl
        ),
        page(sql, repl, 'c.created_at DESC, c.id DESC', 5, 0),
        q(parentMarginsSql(range, marginRepl), marginRepl)
      ])
      return {
        totalCommission: ghs(t.commission),
        totalRevenue: ghs(t.revenue),
        totalCount: toInt(t.n),
        averageCommission: avg(t.commission, t.n),
        totalParentMargin: ghs(m.margin),
        parentMarginOrders: toInt(m.n),
        commissionByDate: byDay.map((d) => ({ date: d.date, amount: ghs(d.commission), count: toInt(d.n) })),
        recentCommissions: recent
      }
    },

    /** Current (not archived) commissions, newest first; the total comes from the running totals when it can. */
    async list(input: unknown) {
      const v = validate<{ page: number; limit: number; startDate?: string; endDate?: string }>(schemas.list, input)
      const { sql, repl } = commissionWhere(v, 'current')
      const src = commissionSource(toRange(v.startDate, v.endDate), 'current')
      const [commissions, [c]] = await Promise.all([
        page(sql, repl, 'c.created_at DESC, c.id DESC', v.limit, (v.page - 1) * v.limit),
        q(`SELECT sum(${src.n}) AS n FROM ${src.from} ${src.where}`, src.repl)
      ])
      const p = pageInfo(v.page, v.limit, toInt(c.n))
      return { commissions, total: p.total, totalPages: p.totalPages, page: p.page, limit: p.limit, pagination: p }
    },

    async archive(input: unknown, ctx: Ctx) {
      const v = validate<{ commissionIds: number[]; notes?: string }>(schemas.archive, input)
      return archiveWhere('AND c.id IN (:ids)', { ids: v.commissionIds }, v.notes, ctx, 'selected')
    },

    async archiveAll(input: unknown, ctx: Ctx) {
      const v = validate<{ notes?: string }>(schemas.archiveAll, input)
      return archiveWhere('', {}, v.notes, ctx, 'all')
    },

    /** Current, archived and combined totals from one read of the running totals: they reconcile by construction. */
    async analyticsSummary() {
      const [r] = await q(
        `SELECT sum(commission) FILTER (WHERE NOT archived) AS cur, sum(n) FILTER (WHERE NOT archived) AS cur_n,
                sum(commission) FILTER (WHERE archived) AS arc, sum(n) FILTER (WHERE archived) AS arc_n,
                sum(commission) AS tot, sum(n) AS tot_n
         FROM commission_daily`
      )
      const [m] = await q(parentMarginsSql({ from: null, to: null }, {}))
      const pair = (a: unknown, n: unknown) => ({ totalAmount: ghs(a), totalCount: toInt(n) })
      return {
        current: pair(r.cur, r.cur_n),
        archived: pair(r.arc, r.arc_n),
        combined: pair(r.tot, r.tot_n),
        averageCommission: avg(r.tot, r.tot_n),
        parentMargins: pair(m.margin, m.n)
      }
    },

    analytics,
    leaderboard,

    async networkAnalytics(input: unknown) {
      const v = validate<{ startDate?: string; endDate?: string }>(schemas.networks, input)
      const range = toRange(v.startDate, v.endDate)
      const src = commissionSource(range, 'all')
      let orderSql: string
      const repl: Record<string, unknown> = { ...src.repl }
      if (src.rollup) {
        const where: string[] = []
        dayRangeSql('o.day', range, where, repl, 'od')
        orderSql = `SELECT o.network, sum(o.revenue) AS revenue, sum(o.n) AS n FROM order_revenue_daily o ${whereSql(where)} GROUP BY o.network`
      } else {
        const where: string[] = [`o.payment_status = 'SUCCESS'`]
        rangeSql('o.created_at', range, where, repl, 'o')
        orderSql = `SELECT o.network, sum(o.amount_pesewas) AS revenue, count(*) AS n FROM orders o ${whereSql(where)} GROUP BY o.network`
      }
      const [orders, commissions] = await Promise.all([
        q(orderSql, repl),
        q(`SELECT c.network, sum(${src.c}) AS commission FROM ${src.from} ${src.where} GROUP BY c.network`, src.repl)
      ])
      const networks = NETWORKS.map((network) => {
        const o = orders.find((r) => r.network === network)
        const c = commissions.find((r) => r.network === network)
        return { network, totalOrders: toInt(o?.n), totalRevenue: ghs(o?.revenue), totalCommission: ghs(c?.commission), _rev: toInt(o?.revenue) }
      })
      networks.sort((a, b) => b._rev - a._rev || a.network.localeCompare(b.network))
      return { networks: networks.map(({ _rev, ...n }) => n) }
    },

    async archived(input: unknown) {
      const v = validate<{ page: number; limit: number }>(schemas.archived, input)
      const [commissions, [c]] = await Promise.all([
        page('WHERE c.archived = true', {}, 'c.archived_at DESC, c.id DESC', v.limit, (v.page - 1) * v.limit),
        q(`SELECT sum(n) AS n FROM commission_daily WHERE archived`)
      ])
      const p = pageInfo(v.page, v.limit, toInt(c.n))
      return { commissions, total: p.total, page: p.page, totalPages: p.totalPages, limit: p.limit }
    },

    /** Every current or archived commission, oldest first, in batches (for CSV exports). */
    stream,

    async recordExport(kind: 'archived' | 'current' | 'analytics' | 'leaderboard', ctx: Ctx) {
      await audit.record({ action: 'COMMISSIONS_EXPORTED', resource: 'SYSTEM', details: { kind } }, ctx)
    }
  }
}
