import { toGhs } from '../../lib/money.ts'
import { toInt } from '../reports/range.ts'

// What the commission reports take (checked at the edge), and how they turn SQL sums into GHS.

/** A report's optional date range (YYYY-MM-DD or ISO), as `server/http/routes/commissions/schema.ts` checks it. */
export interface RangeInput {
  startDate?: string
  endDate?: string
}
export type Scope = 'all' | 'current' | 'archived'
export interface PageInput {
  page: number
  limit: number
}
export type ListInput = PageInput & RangeInput
export interface ArchiveInput {
  commissionIds: number[]
  notes?: string
}
export interface ArchiveAllInput {
  notes?: string
}
export interface AnalyticsInput extends RangeInput {
  groupBy: GroupBy
  scope: Scope
}
export interface LeaderboardInput extends RangeInput {
  limit: number
  network?: string
}

export type GroupBy = 'day' | 'week' | 'month' | 'agent' | 'network'

export const ghs = (pesewas: unknown) => toGhs(toInt(pesewas)) ?? 0
export const avg = (totalPesewas: unknown, count: unknown) => (toInt(count) ? ghs(Math.round(toInt(totalPesewas) / toInt(count))) : 0)
export const defaultArchiveNote = (now = new Date()) => `Archived on ${now.toLocaleDateString('en-GH', { timeZone: 'Africa/Accra' })}`
