import Joi from 'joi'
import { badRequest } from '../../lib/errors.ts'

// Ghana keeps GMT all year, so UTC day boundaries are the shop's day boundaries.
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** A date filter as the API accepts it: 'YYYY-MM-DD' or a full ISO timestamp; blank means none. */
export const dateParam = Joi.alternatives()
  .try(Joi.string().trim().allow('').pattern(DATE_ONLY), Joi.date().iso())
  .messages({ 'alternatives.match': '{{#label}} must be a date (YYYY-MM-DD) or an ISO timestamp' })

export interface Range {
  from: Date | null
  /** Exclusive upper bound. */
  to: Date | null
}

function parse(value: unknown, endOfDay: boolean): Date | null {
  if (value === undefined || value === null || value === '') return null
  if (value instanceof Date) return value
  const s = String(value)
  const d = new Date(DATE_ONLY.test(s) ? `${s}T00:00:00.000Z` : s)
  if (Number.isNaN(d.getTime())) throw badRequest(`Invalid date: ${s}`)
  // A bare end date means "through that whole day".
  if (endOfDay && DATE_ONLY.test(s)) d.setUTCDate(d.getUTCDate() + 1)
  return d
}

/** Start inclusive, end inclusive of its whole day when given as a bare date. */
export function toRange(startDate: unknown, endDate: unknown): Range {
  const from = parse(startDate, false)
  const to = parse(endDate, true)
  if (from && to && from >= to) throw badRequest('startDate must be before endDate')
  return { from, to }
}

/** Appends the range to a WHERE list for `column`, with named replacements. */
export function rangeSql(column: string, range: Range, where: string[], repl: Record<string, unknown>, prefix = 'r') {
  if (range.from) {
    where.push(`${column} >= :${prefix}From`)
    repl[`${prefix}From`] = range.from
  }
  if (range.to) {
    where.push(`${column} < :${prefix}To`)
    repl[`${prefix}To`] = range.to
  }
}

/** Joi validation of a query or body: unknown keys are refused, the first message is the error. */
export function validate<T>(schema: Joi.Schema, input: unknown): T {
  const { value, error } = schema.validate(input ?? {}, { abortEarly: true, convert: true, stripUnknown: false })
  if (error) throw badRequest(error.details[0]?.message.replace(/"/g, '') ?? 'Invalid input')
  return value as T
}

export function pageInfo(page: number, limit: number, total: number) {
  const totalPages = Math.max(1, Math.ceil(total / limit))
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 }
}

export const toInt = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v))

const midnight = (d: Date | null) => !d || (d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0)

/** True when the range is whole days (or open), so the per-day running totals can answer it exactly. */
export const wholeDays = (range: Range) => midnight(range.from) && midnight(range.to)

/** Appends a whole-day range over a DATE column (`to` is exclusive). */
export function dayRangeSql(column: string, range: Range, where: string[], repl: Record<string, unknown>, prefix = 'd') {
  const iso = (d: Date) => d.toISOString().slice(0, 10)
  if (range.from) {
    where.push(`${column} >= :${prefix}From::date`)
    repl[`${prefix}From`] = iso(range.from)
  }
  if (range.to) {
    where.push(`${column} < :${prefix}To::date`)
    repl[`${prefix}To`] = iso(range.to)
  }
}

export const whereSql = (where: string[]) => (where.length ? `WHERE ${where.join(' AND ')}` : '')
