import type { Sequelize } from 'sequelize'
import { QueryTypes } from 'sequelize'
import { dayRangeSql, rangeSql, toInt, toRange, whereSql, wholeDays, type Range } from '../reports/range.ts'
import { parentMarginsSql } from './parent-margins.ts'
import { type AnalyticsInput, avg, ghs, type GroupBy, type LeaderboardInput } from './report-checks.ts'

// The commission analytics: grouped figures (by day, week, month, agent, network) and the agents'
// leaderboard, each one SQL aggregate over the running totals or the tables themselves.

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
export function commissionSource(range: Range, scope: 'all' | 'current' | 'archived', byAgent = false) {
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

export function createCommissionAnalytics(sequelize: Sequelize) {
  const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
    sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements })

  async function analytics(v: AnalyticsInput) {
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

  async function leaderboard(v: LeaderboardInput) {
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

  return { analytics, leaderboard }
}
