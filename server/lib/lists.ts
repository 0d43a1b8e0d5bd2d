import { QueryTypes, type Sequelize } from 'sequelize'
import { phoneVariants } from './phone.ts'

export interface Pagination {
  page: number
  limit: number
  total: number
  totalPages: number
  hasNext: boolean
  hasPrev: boolean
  exact: boolean
}

export function paginationOf(page: number, limit: number, total: number, exact = true): Pagination {
  const totalPages = Math.max(1, Math.ceil(total / limit))
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1, exact }
}

/**
 * Totals are counted exactly up to this many rows (100 pages of 20); beyond it the planner's estimate is returned
 * (pagination.exact = false, shown as 'about N'). An exact count(*) over most of a million-row
 * table costs 0.3-0.5 s on every page turn, and nobody pages through 500 pages of 20 anyway.
 */
export const COUNT_CAP = 2_000

export async function cappedCount(sequelize: Sequelize, fromWhere: string, replacements: Record<string, unknown>): Promise<{ total: number; exact: boolean }> {
  const [row] = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM (SELECT 1 ${fromWhere} LIMIT ${COUNT_CAP + 1}) capped`, {
    replacements,
    type: QueryTypes.SELECT
  })
  const n = Number(row?.n ?? 0)
  if (n <= COUNT_CAP) return { total: n, exact: true }
  const [plan] = await sequelize.query<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>(`EXPLAIN (FORMAT JSON) SELECT 1 ${fromWhere}`, {
    replacements,
    type: QueryTypes.SELECT
  })
  const estimate = Math.round(Number(plan?.['QUERY PLAN']?.[0]?.Plan?.['Plan Rows'] ?? 0))
  return { total: Math.max(estimate, COUNT_CAP + 1), exact: false }
}

/** '%term%' with LIKE's own wildcards taken literally. */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/** Both spellings of a (partial) number: a term starting 0 also matches 233..., and the other way. */
export function phoneLikes(digits: string): string[] {
  const out = new Set([digits, ...phoneVariants(digits)])
  if (digits.startsWith('0') && digits.length > 1) out.add(`233${digits.slice(1)}`)
  if (digits.startsWith('233') && digits.length > 3) out.add(`0${digits.slice(3)}`)
  return [...out].filter((d) => d.length > 0).map(likePattern)
}
