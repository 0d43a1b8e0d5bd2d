import Joi from 'joi'
import type { Sequelize } from 'sequelize'
import { AppError, badRequest } from '../../lib/errors.ts'
import type { AuditService } from '../audit/index.ts'
import type { Ctx } from '../context.ts'
import { DAY_MS, dayKey, dayStart, latestDueDay } from './gateway-days.ts'
import { createReconcileQueries } from './queries-reconcile.ts'
import type { DailyResult } from './reconcile-daily.ts'

/** The most days one catch-up or one admin request reconciles: a month of gateway lists at most. */
export const MAX_RECONCILE_DAYS = 31

const DAY = Joi.string()
  .trim()
  .pattern(/^\d{4}-\d{2}-\d{2}$/)
  .custom((v: string, h) => (Number.isNaN(dayStart(v)) || dayKey(dayStart(v)) !== v ? h.error('any.invalid') : v))
const rangeSchema = Joi.object({ from: DAY.required(), to: DAY.allow('', null) })
  .unknown(false)
  .messages({
    'string.pattern.base': '{{#label}} must be a day (YYYY-MM-DD)',
    'any.invalid': '{{#label}} is not a real day',
    'any.required': '{{#label}} is required (YYYY-MM-DD)'
  })

/** The days from..to (inclusive) an admin or operator asks to reconcile, checked. */
export function requestedDays(raw: unknown, now = new Date()): string[] {
  const { error, value } = rangeSchema.validate(raw ?? {}, { errors: { wrap: { label: false } } })
  if (error) throw badRequest(error.message)
  const from = value.from as string
  const to = (value.to as string | null | undefined) || from
  const today = dayKey(now.getTime())
  if (to < from) throw badRequest('to must be the same day as from or later')
  if (to > today) throw badRequest(`to cannot be after today (${today})`)
  const n = (dayStart(to) - dayStart(from)) / DAY_MS + 1
  if (n > MAX_RECONCILE_DAYS) throw badRequest(`At most ${MAX_RECONCILE_DAYS} days at once`)
  return Array.from({ length: n }, (_, i) => dayKey(dayStart(from) + i * DAY_MS))
}

/**
 * Which days still need reconciling, and reconciling a range on request. A day counts as done once
 * a complete run of it is recorded in reconciled_days.
 */
export function createReconcileDays(deps: { sequelize: Sequelize; audit: AuditService; reconcileDay: (day: string, now?: Date) => Promise<DailyResult> }) {
  const queries = createReconcileQueries(deps.sequelize)

  /**
   * Every complete day since the first one ever reconciled that has no record, oldest first, within
   * the last MAX_RECONCILE_DAYS; a fresh shop starts with the latest complete day.
   */
  async function missingDays(now = new Date()): Promise<string[]> {
    const latest = latestDueDay(now)
    const windowStart = dayKey(dayStart(latest) - (MAX_RECONCILE_DAYS - 1) * DAY_MS)
    return queries.daysWithoutRecord(windowStart, latest)
  }

  /** "Reconcile now": each day of the range in turn, audited once with what it found. */
  async function reconcileNow(raw: unknown, ctx: Ctx = {}, by = 'admin'): Promise<DailyResult[]> {
    const days = requestedDays(raw)
    const done: DailyResult[] = []
    let failure: string | null = null
    for (const day of days) {
      try {
        done.push(await deps.reconcileDay(day))
      } catch (err) {
        failure = `${day}: ${(err as Error).message}`
        break
      }
    }
    await deps.audit.record(
      {
        action: 'RECONCILIATION_RUN',
        resource: 'PAYMENT',
        severity: 'MEDIUM',
        details: { by, from: days[0], to: days.at(-1), days: done.map((r) => ({ day: r.day, runId: r.runId, mismatches: r.mismatches })), failure }
      },
      ctx
    )
    if (failure) throw new AppError(502, `Reconciliation stopped at ${failure}. Days before it were reconciled; try again later.`)
    return done
  }

  return { missingDays, reconcileNow }
}
