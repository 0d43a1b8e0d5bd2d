import type { Sequelize } from 'sequelize'
import { NETWORKS } from '../../lib/vocabulary.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { pageInfo, toRange } from '../reports/range.ts'
import { createCommissionAnalytics } from './analytics.ts'
import type { CommissionView } from './commission-view.ts'
import { createCommissionQueries } from './queries.ts'
import { type ArchiveAllInput, type ArchiveInput, avg, defaultArchiveNote, ghs, type ListInput, type PageInput, type RangeInput } from './report-checks.ts'

export type { CommissionView } from './commission-view.ts'

// Reports over commissions (written by services.commissions when an order is paid) and orders.
// Every figure is one SQL aggregate over the whole table, never a sum of one page.
// Revenue of agents and networks comes from SUCCESS orders; commission figures from commissions;
// parents' margins on sub-agent orders from the earnings ledger, as a figure of their own.

export function createCommissionReportsService({ sequelize, audit }: { sequelize: Sequelize; audit: AuditService }) {
  const q = createCommissionQueries(sequelize)

  async function* stream(scope: 'current' | 'archived', batch = 2000): AsyncGenerator<CommissionView> {
    let afterId = 0
    for (;;) {
      const rows = await q.batchAfter(scope, afterId, batch)
      yield* rows
      if (rows.length < batch) return
      afterId = rows[rows.length - 1]!.id
    }
  }

  async function archive(ids: number[] | null, note: string | undefined, ctx: Ctx, kind: string) {
    const notes = note?.trim() || defaultArchiveNote()
    const archivedCount = await q.archive(ids, notes)
    await audit.record(
      {
        action: 'COMMISSIONS_ARCHIVED',
        resource: 'SYSTEM',
        severity: 'MEDIUM',
        details: { kind, archivedCount, notes, ...(ids ? { requested: ids.length } : {}) }
      },
      ctx
    )
    return { archivedCount, message: archivedCount === 1 ? '1 commission archived' : `${archivedCount} commissions archived` }
  }

  const { analytics, leaderboard } = createCommissionAnalytics(q)

  return {
    /** Commissions page cards: current (not archived) commissions in the range; by-date over the range or the last 30 days. */
    async summary(v: RangeInput) {
      const range = toRange(v.startDate, v.endDate)
      const days = v.startDate || v.endDate ? range : toRange(new Date(Date.now() - 30 * 86400_000).toISOString().slice(0, 10), null)
      const [t, byDay, recent, m] = await Promise.all([
        q.sums(range, 'current'),
        q.byDay(days, 'current'),
        q.inRange(range, 'current', 5, 0),
        q.parentMargins(range)
      ])
      return {
        totalCommission: ghs(t.commission),
        totalRevenue: ghs(t.revenue),
        totalCount: t.n,
        averageCommission: avg(t.commission, t.n),
        totalParentMargin: ghs(m.margin),
        parentMarginOrders: m.n,
        commissionByDate: byDay.map((d) => ({ date: d.date, amount: ghs(d.commission), count: d.n })),
        recentCommissions: recent
      }
    },

    /** Current (not archived) commissions, newest first; the total comes from the running totals when it can. */
    async list(v: ListInput) {
      const range = toRange(v.startDate, v.endDate)
      const [commissions, n] = await Promise.all([q.inRange(range, 'current', v.limit, (v.page - 1) * v.limit), q.count(range, 'current')])
      const p = pageInfo(v.page, v.limit, n)
      return { commissions, total: p.total, totalPages: p.totalPages, page: p.page, limit: p.limit, pagination: p }
    },

    archive: (v: ArchiveInput, ctx: Ctx) => archive(v.commissionIds, v.notes, ctx, 'selected'),

    archiveAll: (v: ArchiveAllInput, ctx: Ctx) => archive(null, v.notes, ctx, 'all'),

    /** Current, archived and combined totals from one read of the running totals: they reconcile by construction. */
    async analyticsSummary() {
      const r = await q.rollupTotals()
      const m = await q.parentMargins({ from: null, to: null })
      const pair = (s: { commission: number; n: number }) => ({ totalAmount: ghs(s.commission), totalCount: s.n })
      return {
        current: pair(r.current),
        archived: pair(r.archived),
        combined: pair(r.combined),
        averageCommission: avg(r.combined.commission, r.combined.n),
        parentMargins: { totalAmount: ghs(m.margin), totalCount: m.n }
      }
    },

    analytics,
    leaderboard,

    async networkAnalytics(v: RangeInput) {
      const { orders, commissions } = await q.byNetwork(toRange(v.startDate, v.endDate))
      const networks = NETWORKS.map((network) => {
        const o = orders.find((r) => r.network === network)
        const c = commissions.find((r) => r.network === network)
        return { network, totalOrders: o?.n ?? 0, totalRevenue: ghs(o?.revenue), totalCommission: ghs(c?.commission), _rev: o?.revenue ?? 0 }
      })
      networks.sort((a, b) => b._rev - a._rev || a.network.localeCompare(b.network))
      return { networks: networks.map(({ _rev, ...n }) => n) }
    },

    async archived(v: PageInput) {
      const [commissions, n] = await Promise.all([q.archivedPage(v.limit, (v.page - 1) * v.limit), q.archivedCount()])
      const p = pageInfo(v.page, v.limit, n)
      return { commissions, total: p.total, page: p.page, totalPages: p.totalPages, limit: p.limit }
    },

    /** Every current or archived commission, oldest first, in batches (for CSV exports). */
    stream,

    async recordExport(kind: 'archived' | 'current' | 'analytics' | 'leaderboard', ctx: Ctx) {
      await audit.record({ action: 'COMMISSIONS_EXPORTED', resource: 'SYSTEM', details: { kind } }, ctx)
    }
  }
}
