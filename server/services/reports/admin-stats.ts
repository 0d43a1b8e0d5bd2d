import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import { badRequest } from '../../lib/errors.ts'
import { toGhs } from '../../lib/money.ts'
import { CHANNEL_LABEL, NETWORKS } from '../../lib/vocabulary.ts'
import type { Ctx } from '../context.ts'
import { PAYMENT_STATUSES } from '../orders/admin.ts'
import type { SettingsService } from '../settings/index.ts'
import { checkerSalesSince } from './checker-sales.ts'
import { createReportQueries, type DayFigures } from './queries.ts'

export const RANGES = { today: 1, '7d': 7, '30d': 30 } as const
export type OverviewRange = keyof typeof RANGES

const rangeSchema = Joi.string()
  .valid(...Object.keys(RANGES))
  .default('7d')
const DAY_MS = 86_400_000

/** Day keys 'YYYY-MM-DD' (Ghana keeps UTC all year, so UTC days are local days). */
const dayKey = (d: Date) => d.toISOString().slice(0, 10)

export type AdminStatsService = ReturnType<typeof createAdminStatsService>

/** Orders of the period and the revenue of the paid ones (GHS), per channel the order came in by. */
type ChannelFigures = { count: number; revenue: number }

/**
 * Days before yesterday hardly change (payments settle or expire within hours), so their per-day
 * sums are kept for a few minutes per instance; yesterday and today are always read live. This is
 * what keeps the 30-day view to one small scan at a million orders. Each instance holds its own
 * copy: a figure for an older day can be up to CLOSED_TTL_MS behind.
 */
const CLOSED_TTL_MS = 10 * 60_000
const STATS_TTL_MS = 30_000

export function createAdminStatsService({ sequelize, settings }: { sequelize: Sequelize; settings: Pick<SettingsService, 'get'> }) {
  const closed = new Map<string, { at: number; rows: DayFigures[] }>()
  let statsCache: { at: number; value: Awaited<ReturnType<typeof readStats>> } | null = null

  const queries = createReportQueries(sequelize)

  async function closedDays(since: Date, until: Date): Promise<DayFigures[]> {
    if (since >= until) return []
    const key = `${since.toISOString()}|${until.toISOString()}`
    const hit = closed.get(key)
    if (hit && Date.now() - hit.at < CLOSED_TTL_MS) return hit.rows
    const rows = await queries.dayFiguresBetween(since, until)
    if (closed.size > 20) closed.clear()
    closed.set(key, { at: Date.now(), rows })
    return rows
  }

  async function readStats() {
    const [totals, breakdown] = await Promise.all([queries.allTimeTotals(), queries.agentsByPaymentStatus()])
    return { totals, breakdown }
  }

  return {
    /** Forget cached figures (after an admin action that changes them, and in tests). */
    invalidate() {
      closed.clear()
      statsCache = null
    },

    /** All-time figures (spec: userCount, agentCount, orderCount, totalAgentRevenue, agentRegistrationFee, agentPaymentBreakdown). */
    async stats(_ctx: Ctx = {}) {
      // All-time totals move slowly and count(*) over a million orders is not free: 30 s per instance.
      if (!statsCache || Date.now() - statsCache.at > STATS_TTL_MS) statsCache = { at: Date.now(), value: await readStats() }
      const { totals, breakdown } = statsCache.value
      const s = await settings.get()
      const agentPaymentBreakdown: Record<string, number> = { SUCCESS: 0, PENDING: 0, IN_PROGRESS: 0, FAILED: 0, EXPIRED: 0, NONE: 0 }
      for (const r of breakdown) agentPaymentBreakdown[r.status ?? 'NONE'] = r.count
      return {
        userCount: totals.users,
        agentCount: totals.agents,
        orderCount: totals.orders,
        totalAgentRevenue: toGhs(totals.agentRevenuePesewas),
        agentRegistrationFee: Number(s.agentRegistrationFee ?? 0),
        agentPaymentBreakdown,
        successfulRegistrations: agentPaymentBreakdown.SUCCESS!,
        pendingRegistrations: agentPaymentBreakdown.PENDING! + agentPaymentBreakdown.IN_PROGRESS! + agentPaymentBreakdown.NONE!,
        failedRegistrations: agentPaymentBreakdown.FAILED! + agentPaymentBreakdown.EXPIRED!
      }
    },

    /**
     * Orders over today / the last 7 / the last 30 days (today included), from ONE grouped scan:
     * per day, status, network and channel; everything else is summed here. Checker sales are the
     * period's sold cards, read from their own index.
     */
    async analytics(rangeInput: unknown, _ctx: Ctx = {}, now = new Date()) {
      const { value: range, error } = rangeSchema.validate(rangeInput ?? undefined)
      if (error) throw badRequest('range must be one of today, 7d, 30d')
      const days = RANGES[range as OverviewRange]
      const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
      const since = new Date(todayStart - (days - 1) * DAY_MS)
      const liveFrom = new Date(Math.max(since.getTime(), todayStart - DAY_MS))
      const [old, live, checkerSales] = await Promise.all([closedDays(since, liveFrom), queries.dayFiguresSince(liveFrom), checkerSalesSince(queries, since)])
      const rows = [...old, ...live]
      const byDay = new Map<string, { count: number; revenue: number }>()
      for (let i = 0; i < days; i++) byDay.set(dayKey(new Date(since.getTime() + i * DAY_MS)), { count: 0, revenue: 0 })
      const paymentStatusBreakdown: Record<string, number> = Object.fromEntries(PAYMENT_STATUSES.map((s) => [s, 0]))
      const networkBreakdown: Record<string, number> = Object.fromEntries(NETWORKS.map((n) => [n, 0]))
      const channelPesewas: Record<string, ChannelFigures> = Object.fromEntries(Object.keys(CHANNEL_LABEL).map((c) => [c, { count: 0, revenue: 0 }]))
      let total = 0
      let revenue = 0
      for (const r of rows) {
        const n = r.count
        const d = byDay.get(r.day) ?? { count: 0, revenue: 0 }
        d.count += n
        total += n
        paymentStatusBreakdown[r.status] = (paymentStatusBreakdown[r.status] ?? 0) + n
        networkBreakdown[r.network] = (networkBreakdown[r.network] ?? 0) + n
        const ch = (channelPesewas[r.channel] ??= { count: 0, revenue: 0 })
        ch.count += n
        if (r.status === 'SUCCESS') {
          ch.revenue += r.amountPesewas
          d.revenue += r.amountPesewas
          revenue += r.amountPesewas
        }
        byDay.set(r.day, d)
      }
      const successCount = paymentStatusBreakdown.SUCCESS ?? 0
      return {
        range,
        since: since.toISOString(),
        totalOrders: total,
        ordersByDay: [...byDay].map(([date, d]) => ({ date, count: d.count })),
        revenueByDay: [...byDay].map(([date, d]) => ({ date, amount: toGhs(d.revenue) })),
        successRate: total ? Math.round((successCount / total) * 1000) / 10 : 0,
        pendingCount: (paymentStatusBreakdown.PENDING ?? 0) + (paymentStatusBreakdown.IN_PROGRESS ?? 0),
        totalRevenue: toGhs(revenue),
        averageOrderValue: successCount ? toGhs(Math.round(revenue / successCount)) : 0,
        paymentStatusBreakdown,
        successCount,
        failedCount: paymentStatusBreakdown.FAILED ?? 0,
        expiredCount: paymentStatusBreakdown.EXPIRED ?? 0,
        networkBreakdown,
        channelBreakdown: Object.fromEntries(Object.entries(channelPesewas).map(([c, f]) => [c, { count: f.count, revenue: toGhs(f.revenue) }])) as Record<
          string,
          ChannelFigures
        >,
        checkerSales
      }
    }
  }
}
