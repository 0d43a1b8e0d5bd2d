import Joi from 'joi'
import { toGhs } from '../../lib/money.ts'
import { NETWORKS } from '../../lib/vocabulary.ts'
import { dateParam, toInt } from '../reports/range.ts'

// What the commission reports accept, and how they turn SQL sums into GHS.

const range = { startDate: dateParam, endDate: dateParam }
const network = Joi.string()
  .trim()
  .uppercase()
  .allow('')
  .valid(...NETWORKS, '')
const notes = Joi.string().trim().allow('').max(500)

export const schemas = {
  summary: Joi.object(range),
  list: Joi.object({ page: Joi.number().integer().min(1).max(1_000_000).default(1), limit: Joi.number().integer().min(1).max(100).default(20), ...range }),
  archive: Joi.object({
    commissionIds: Joi.array().items(Joi.number().integer().min(1)).min(1).max(10_000).unique().required(),
    notes
  }).messages({
    'array.min': 'Please select commissions to archive',
    'any.required': 'Please select commissions to archive',
    'array.unique': 'Each commission may be listed once'
  }),
  archiveAll: Joi.object({ notes }),
  analytics: Joi.object({
    groupBy: Joi.string()
      .trim()
      .lowercase()
      .valid('day', 'week', 'month', 'agent', 'network')
      .default('day')
      .messages({ 'any.only': 'groupBy must be one of day, week, month, agent, network' }),
    scope: Joi.string().trim().lowercase().valid('all', 'current', 'archived').default('all'),
    ...range
  }),
  leaderboard: Joi.object({ limit: Joi.number().integer().min(1).max(100).default(10), network, ...range }),
  networks: Joi.object(range),
  archived: Joi.object({ page: Joi.number().integer().min(1).max(1_000_000).default(1), limit: Joi.number().integer().min(1).max(100).default(20) })
}

export type GroupBy = 'day' | 'week' | 'month' | 'agent' | 'network'

export const ghs = (pesewas: unknown) => toGhs(toInt(pesewas)) ?? 0
export const avg = (totalPesewas: unknown, count: unknown) => (toInt(count) ? ghs(Math.round(toInt(totalPesewas) / toInt(count))) : 0)
export const defaultArchiveNote = (now = new Date()) => `Archived on ${now.toLocaleDateString('en-GH', { timeZone: 'Africa/Accra' })}`
