import { QueryTypes, type Sequelize } from 'sequelize'
import { NETWORKS } from '../../lib/vocabulary.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { dayRangeSql, pageInfo, rangeSql, toInt, toRange, whereSql } from '../reports/range.ts'
import { commissionSource, createCommissionAnalytics } from './analytics.ts'
import { commissionView, JOINS, ROWS, type CommissionView } from './commission-view.ts'
import { parentMarginsSql } from './parent-margins.ts'
import { type ArchiveAllInput, type ArchiveInput, avg, defaultArchiveNote, ghs, type ListInput, type PageInput, type RangeInput } from './report-checks.ts'

export type { CommissionView } from './commission-view.ts'

// Reports over commissions (written by services.commissions when an order is paid) and orders.
// Every figure is one SQL aggregate over the whole table, never a sum of one page.
// Revenue of agents and networks comes from SUCCESS orders; commission figures from commissions;
// parents' margins on sub-agent orders from the earnings ledger, as a figure of their own.

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

  const { analytics, leaderboard } = createCommissionAnalytics(sequelize)

  return {
    /** Commissions page cards: current (not archived) commissions in the range; by-date over the range or the last 30 days. */
    async summary(v: RangeInput) {
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
    async list(v: ListInput) {
      const { sql, repl } = commissionWhere(v, 'current')
      const src = commissionSource(toRange(v.startDate, v.endDate), 'current')
      const [commissions, [c]] = await Promise.all([
        page(sql, repl, 'c.created_at DESC, c.id DESC', v.limit, (v.page - 1) * v.limit),
        q(`SELECT sum(${src.n}) AS n FROM ${src.from} ${src.where}`, src.repl)
      ])
      const p = pageInfo(v.page, v.limit, toInt(c.n))
      return { commissions, total: p.total, totalPages: p.totalPages, page: p.page, limit: p.limit, pagination: p }
    },

    async archive(v: ArchiveInput, ctx: Ctx) {
      return archiveWhere('AND c.id IN (:ids)', { ids: v.commissionIds }, v.notes, ctx, 'selected')
    },

    async archiveAll(v: ArchiveAllInput, ctx: Ctx) {
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

    async networkAnalytics(v: RangeInput) {
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

    async archived(v: PageInput) {
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
