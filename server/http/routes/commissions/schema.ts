import Joi from 'joi'
import { NETWORKS } from '../../../lib/vocabulary.ts'
import type {
  AnalyticsInput,
  ArchiveAllInput,
  ArchiveInput,
  LeaderboardInput,
  ListInput,
  PageInput,
  RangeInput
} from '../../../services/commissions/report-checks.ts'
import { dateParam } from '../../../services/reports/range.ts'

// One schema per endpoint of /api/commissions and /api/commission-analytics, bound to the type its
// service takes. An unknown key is refused (400 'x is not allowed'), as the reports always did.

const range = { startDate: dateParam, endDate: dateParam }
const network = Joi.string()
  .trim()
  .uppercase()
  .allow('')
  .valid(...NETWORKS, '')
const notes = Joi.string().trim().allow('').max(500)
const page = Joi.number().integer().min(1).max(1_000_000).default(1)
const limit = Joi.number().integer().min(1).max(100).default(20)

/** GET /api/commissions/summary */
export const summaryQuery = Joi.object<RangeInput>(range)

/** GET /api/commissions */
export const listQuery = Joi.object<ListInput>({ page, limit, ...range })

/** POST /api/commission-analytics/archive */
export const archiveBody = Joi.object<ArchiveInput>({
  commissionIds: Joi.array().items(Joi.number().integer().min(1)).min(1).max(10_000).unique().required(),
  notes
}).messages({
  'array.min': 'Please select commissions to archive',
  'any.required': 'Please select commissions to archive',
  'array.unique': 'Each commission may be listed once'
})

/** POST /api/commission-analytics/archive-all */
export const archiveAllBody = Joi.object<ArchiveAllInput>({ notes })

/** GET /api/commission-analytics/analytics and its CSV export */
export const analyticsQuery = Joi.object<AnalyticsInput>({
  groupBy: Joi.string()
    .trim()
    .lowercase()
    .valid('day', 'week', 'month', 'agent', 'network')
    .default('day')
    .messages({ 'any.only': 'groupBy must be one of day, week, month, agent, network' }),
  scope: Joi.string().trim().lowercase().valid('all', 'current', 'archived').default('all'),
  ...range
})

/** GET /api/commission-analytics/agent-leaderboard and its CSV export */
export const leaderboardQuery = Joi.object<LeaderboardInput>({ limit: Joi.number().integer().min(1).max(100).default(10), network, ...range })

/** GET /api/commission-analytics/network-analytics */
export const networksQuery = Joi.object<RangeInput>(range)

/** GET /api/commission-analytics/archived */
export const archivedQuery = Joi.object<PageInput>({ page, limit })
