import { QueryTypes, type Sequelize, type Transaction } from 'sequelize'
import { preparedFor } from '../../../models/prepared.ts'
import { dayRangeSql, rangeSql, toInt, whereSql, wholeDays, type Range } from '../reports/range.ts'
import { commissionView, type CommissionView } from './commission-view.ts'
import { JOINS, parentMarginsSql, ROWS } from './queries-shared.ts'
import type { GroupBy, Scope } from './report-checks.ts'

// The commissions capability's statements: the commission written when an order settles, and every
// report's aggregate. Sums come back as numbers of pesewas, counts as numbers.

/** Summed pesewas and the count they cover. */
export interface Sums {
  commission: number
  revenue: number
  n: number
}
/** Parents' margins (pesewas) and the orders credited and not taken back (queries-shared.ts). */
export interface MarginSums {
  margin: number
  n: number
}

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
function commissionSource(range: Range, scope: Scope, byAgent = false) {
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

/** WHERE for commissions `c` over a date range and archived scope. */
function commissionWhere(range: Range, scope: Scope) {
  const where: string[] = []
  const repl: Record<string, unknown> = {}
  if (scope !== 'all') where.push(`c.archived = ${scope === 'archived'}`)
  rangeSql('c.created_at', range, where, repl)
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', repl }
}

const INSERT_ONE = `INSERT INTO commissions (order_id, agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status)
         VALUES ($1, $2, $3, $4, $5, $6, 'PENDING')
         ON CONFLICT (order_id) DO NOTHING RETURNING id`

/**
 * A paid order's commission as a CTE of the statement that pays the order (`source`, a CTE of order rows;
 * ADR 0055), with `INSERT_ONE`'s columns and its one row per order. Parameters from `$first`: the commission
 * (null: none is due), its type, and the amount it was computed from: only an order of that amount gets it,
 * since the commission is a function of the order's own amount (`commissionFor`). A shop's or a sub-agent's
 * order gets none, as in `recordForOrder`. Returns the order's id when it wrote one.
 */
export const commissionOfPaid = (source: string, first: number) =>
  `INSERT INTO commissions (order_id, agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status)
    SELECT ${source}.id, ${source}.agent_id, ${source}.network, ${source}.amount_pesewas, $${first}::int, $${first + 1}::text, 'PENDING'
      FROM ${source}
      WHERE $${first}::int IS NOT NULL AND ${source}.amount_pesewas = $${first + 2}::int AND ${source}.shop_id IS NULL AND ${source}.parent_agent_id IS NULL
    ON CONFLICT (order_id) DO NOTHING RETURNING order_id`

export function createCommissionQueries(sequelize: Sequelize) {
  const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
    sequelize.query<T>(sql, { type: QueryTypes.SELECT, replacements })
  // On every paid order's path: a named statement (ADR 0024).
  const run = preparedFor(sequelize)
  const sums = (r: any): Sums => ({ commission: toInt(r?.commission), revenue: toInt(r?.revenue), n: toInt(r?.n) })

  /** One page of commissions `c` (already filtered and ordered) with their order, buyer and agent. */
  async function page(filter: string, repl: Record<string, unknown>, order: string, limit: number, offset: number): Promise<CommissionView[]> {
    const rows = await q(`${ROWS} FROM (SELECT * FROM commissions c ${filter} ORDER BY ${order} LIMIT :limit OFFSET :offset) c ${JOINS} ORDER BY ${order}`, {
      ...repl,
      limit,
      offset
    })
    return rows.map(commissionView)
  }

  async function parentMargins(range: Range): Promise<MarginSums> {
    const repl: Record<string, unknown> = {}
    const [m] = await q(parentMarginsSql(range, repl), repl)
    return { margin: toInt(m.margin), n: toInt(m.n) }
  }

  return {
    /** One commission, inside the settlement's transaction; false when the order has one already. */
    insertOne: async (
      c: { orderId: number; agentId: number | null; network: string; originalPesewas: number; commissionPesewas: number; type: string },
      transaction: Transaction
    ): Promise<boolean> => (await run(INSERT_ONE, [c.orderId, c.agentId, c.network, c.originalPesewas, c.commissionPesewas, c.type], transaction)).length > 0,
    /** Many in one INSERT; returns the ids of the orders it recorded one for. */
    async insertMany(
      c: { type: string; orderIds: number[]; agentIds: (number | null)[]; networks: string[]; originalPesewas: number[]; commissionPesewas: number[] },
      transaction: Transaction
    ): Promise<Set<number>> {
      const rows = await sequelize.query<{ order_id: number }>(
        `INSERT INTO commissions (order_id, agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status)
         SELECT o, a, n, amt, c, :type, 'PENDING' FROM unnest(ARRAY[:id]::int[], ARRAY[:agent]::int[], ARRAY[:net]::text[], ARRAY[:amt]::int[], ARRAY[:c]::int[]) AS l(o, a, n, amt, c)
         ON CONFLICT (order_id) DO NOTHING RETURNING order_id`,
        {
          replacements: { type: c.type, id: c.orderIds, agent: c.agentIds, net: c.networks, amt: c.originalPesewas, c: c.commissionPesewas },
          type: QueryTypes.SELECT,
          transaction
        }
      )
      return new Set(rows.map((r) => Number(r.order_id)))
    },

    /** A page of commissions in a range and scope, newest first. */
    inRange(range: Range, scope: Scope, limit: number, offset: number) {
      const { sql, repl } = commissionWhere(range, scope)
      return page(sql, repl, 'c.created_at DESC, c.id DESC', limit, offset)
    },
    /** A page of archived commissions, last archived first. */
    archivedPage: (limit: number, offset: number) => page('WHERE c.archived = true', {}, 'c.archived_at DESC, c.id DESC', limit, offset),
    /** Every current or archived commission, oldest first, in batches after an id. */
    batchAfter: (scope: 'current' | 'archived', afterId: number, batch: number) =>
      page(`WHERE c.archived = ${scope === 'archived'} AND c.id > :afterId`, { afterId }, 'c.id ASC', batch, 0),

    /** Archives the not-yet-archived commissions (all, or the ids given); returns how many moved. */
    async archive(ids: number[] | null, notes: string): Promise<number> {
      // `archived = false` in the same statement makes a repeat (or a racing twin) move nothing twice.
      const [, affected] = await sequelize.query(
        `UPDATE commissions c SET archived = true, archived_at = now(), archive_notes = :notes WHERE c.archived = false ${ids ? 'AND c.id IN (:ids)' : ''}`,
        { replacements: ids ? { ids, notes } : { notes }, type: QueryTypes.UPDATE }
      )
      return Number(affected ?? 0)
    },

    /** The sums over a range and scope. */
    async sums(range: Range, scope: Scope): Promise<Sums> {
      const src = commissionSource(range, scope)
      const [t] = await q(`SELECT sum(${src.c}) AS commission, sum(${src.r}) AS revenue, sum(${src.n}) AS n FROM ${src.from} ${src.where}`, src.repl)
      return sums(t)
    },
    /** How many commissions a range and scope holds. */
    async count(range: Range, scope: Scope): Promise<number> {
      const src = commissionSource(range, scope)
      const [c] = await q(`SELECT sum(${src.n}) AS n FROM ${src.from} ${src.where}`, src.repl)
      return toInt(c.n)
    },
    /** Commission and count per UTC day with any, oldest first. */
    async byDay(range: Range, scope: Scope): Promise<{ date: string; commission: number; n: number }[]> {
      const days = commissionSource(range, scope)
      const dayKey = days.rollup ? 'c.day' : `date_trunc('day', c.created_at AT TIME ZONE 'UTC')`
      const rows = await q(
        `SELECT to_char(k, 'YYYY-MM-DD') AS date, commission, n FROM (
             SELECT ${dayKey} AS k, sum(${days.c}) AS commission, sum(${days.n}) AS n FROM ${days.from} ${days.where} GROUP BY 1) d
           WHERE n <> 0 ORDER BY k`,
        days.repl
      )
      return rows.map((d) => ({ date: d.date, commission: toInt(d.commission), n: toInt(d.n) }))
    },
    parentMargins,

    /** Current, archived and combined sums from one read of the running totals. */
    async rollupTotals(): Promise<{ current: Sums; archived: Sums; combined: Sums }> {
      const [r] = await q(
        `SELECT sum(commission) FILTER (WHERE NOT archived) AS cur, sum(n) FILTER (WHERE NOT archived) AS cur_n,
                sum(commission) FILTER (WHERE archived) AS arc, sum(n) FILTER (WHERE archived) AS arc_n,
                sum(commission) AS tot, sum(n) AS tot_n
         FROM commission_daily`
      )
      const pair = (commission: unknown, n: unknown): Sums => ({ commission: toInt(commission), revenue: 0, n: toInt(n) })
      return { current: pair(r.cur, r.cur_n), archived: pair(r.arc, r.arc_n), combined: pair(r.tot, r.tot_n) }
    },
    async archivedCount(): Promise<number> {
      const [c] = await q(`SELECT sum(n) AS n FROM commission_daily WHERE archived`)
      return toInt(c.n)
    },

    /** Paid orders' revenue and count, and commissions, per network over a range. */
    async byNetwork(range: Range) {
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
      return {
        orders: orders.map((o) => ({ network: String(o.network), revenue: toInt(o.revenue), n: toInt(o.n) })),
        commissions: commissions.map((c) => ({ network: String(c.network), commission: toInt(c.commission) }))
      }
    },

    /** The groups and the grand total in one pass (the empty grouping set is the total). */
    async grouped(range: Range, scope: Scope, groupBy: GroupBy) {
      const byAgent = groupBy === 'agent'
      const src = commissionSource(range, scope, byAgent)
      const key = GROUP_KEY[groupBy]
      const raw = src.rollup ? key.rollup : key.raw
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
      return {
        total: sums(total),
        groups: rows
          .filter((r) => toInt(r.is_total) === 0)
          .map((r) => ({ key: String(r.key), agentName: (r.agent_name as string | null | undefined) ?? null, ...sums(r) }))
      }
    },

    /**
     * Agents by their own paid orders' revenue (a sub-agent's sale is the sub-agent's), with their
     * commission and their margins as parents; the stats cover every selling agent, the margins' total every parent.
     */
    async leaderboard(range: Range, limit: number, network: string | null) {
      const repl: Record<string, unknown> = { limit, network }
      const net = (col: string) => (network ? ` AND ${col} = :network` : '')
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
      const m = parentMarginsSql(range, repl, { network, byAgent: true })
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
      return {
        rows: (row.rows as any[]).map((r) => ({
          agentId: r.agent_id as number,
          name: r.name as string,
          phone: r.phone as string,
          tier: (r.tier as string | null) ?? null,
          revenue: toInt(r.revenue),
          n: toInt(r.n),
          commission: toInt(r.commission),
          margin: toInt(r.margin)
        })),
        stats: {
          agents: toInt(s.agents),
          highest: toInt(s.highest),
          lowest: toInt(s.lowest),
          average: Math.round(Number(s.average ?? 0)),
          mostOrders: toInt(s.mostOrders),
          revenue: toInt(s.revenue),
          orders: toInt(s.orders),
          commission: toInt(s.commission)
        },
        margins: { margin: toInt(row.margins.margin), n: toInt(row.margins.n) }
      }
    }
  }
}

export type CommissionQueries = ReturnType<typeof createCommissionQueries>
