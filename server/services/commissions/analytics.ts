import { toRange } from '../reports/range.ts'
import type { CommissionQueries } from './queries.ts'
import { type AnalyticsInput, avg, ghs, type LeaderboardInput } from './report-checks.ts'

// The commission analytics: grouped figures (by day, week, month, agent, network) and the agents'
// leaderboard, each one SQL aggregate over the running totals or the tables themselves (queries.ts).

export function createCommissionAnalytics(q: CommissionQueries) {
  async function analytics(v: AnalyticsInput) {
    const byAgent = v.groupBy === 'agent'
    const range = toRange(v.startDate, v.endDate)
    const margins = q.parentMargins(range)
    const { total, groups: rows } = await q.grouped(range, v.scope, v.groupBy)
    const m = await margins
    const groups = rows.map((r) => ({
      key: r.key,
      label: byAgent ? (r.agentName ?? 'Direct Customer') : v.groupBy === 'week' ? `Week of ${r.key}` : r.key,
      totalCommission: ghs(r.commission),
      totalRevenue: ghs(r.revenue),
      totalOrders: r.n,
      averageCommission: avg(r.commission, r.n),
      _commission: r.commission
    }))
    groups.sort(
      byAgent || v.groupBy === 'network' ? (a, b) => b._commission - a._commission || a.key.localeCompare(b.key) : (a, b) => a.key.localeCompare(b.key)
    )
    return {
      groupBy: v.groupBy,
      scope: v.scope,
      totalStats: {
        totalCommission: ghs(total.commission),
        totalRevenue: ghs(total.revenue),
        totalOrders: total.n,
        averageCommission: avg(total.commission, total.n),
        // not archived, so the scope does not apply; see queries-shared.ts
        totalParentMargin: ghs(m.margin),
        parentMarginOrders: m.n
      },
      groupByData: groups.map(({ _commission, ...g }) => g)
    }
  }

  async function leaderboard(v: LeaderboardInput) {
    const { rows, stats: s, margins } = await q.leaderboard(toRange(v.startDate, v.endDate), v.limit, v.network || null)
    return {
      leaderboard: rows.map((r, i) => ({
        rank: i + 1,
        agentId: r.agentId,
        agentName: r.name,
        agentPhone: r.phone,
        tier: r.tier,
        totalRevenue: ghs(r.revenue),
        totalOrders: r.n,
        totalCommission: ghs(r.commission),
        parentMargin: ghs(r.margin)
      })),
      totalAgents: s.agents,
      stats: {
        highestRevenue: ghs(s.highest),
        lowestRevenue: ghs(s.lowest),
        averageRevenue: ghs(s.average),
        mostOrders: s.mostOrders,
        totalRevenue: ghs(s.revenue),
        totalOrders: s.orders,
        totalCommission: ghs(s.commission),
        totalParentMargin: ghs(margins.margin),
        parentMarginOrders: margins.n
      }
    }
  }

  return { analytics, leaderboard }
}
