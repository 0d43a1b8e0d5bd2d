import { Router } from 'express'
import type { CsvColumn } from '../../../lib/csv.ts'
import type { CommissionView } from '../../../services/commissions/reports.ts'
import type { Services } from '../../../services/index.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { ctxOf } from '../../ctx.ts'
import { sendCsv, today } from '../../insight-export.ts'
import { valid } from '../../validate.ts'
import { analyticsQuery, archiveAllBody, archiveBody, archivedQuery, leaderboardQuery, networksQuery } from './schema.ts'

const agentOf = (c: CommissionView) => c.agentName ?? 'Direct Customer'

const ARCHIVED: CsvColumn<CommissionView>[] = [
  { header: 'Commission ID', kind: 'int', value: (c) => c.id },
  { header: 'Order ID', kind: 'int', value: (c) => c.order.id },
  { header: 'Agent', value: agentOf },
  { header: 'Agent Phone', kind: 'phone', value: (c) => c.agentPhone },
  { header: 'Network', value: (c) => c.network },
  { header: 'Order Amount (GHS)', kind: 'money', value: (c) => c.originalAmount },
  { header: 'Commission (GHS)', kind: 'money', value: (c) => c.commissionAmount },
  { header: 'Payment Status', value: (c) => c.paymentStatus },
  { header: 'Created At', kind: 'datetime', value: (c) => c.createdAt },
  { header: 'Archived At', kind: 'datetime', value: (c) => c.archivedAt },
  { header: 'Archive Notes', value: (c) => c.archiveNotes }
]

const CURRENT: CsvColumn<CommissionView>[] = [
  { header: 'Commission ID', kind: 'int', value: (c) => c.id },
  { header: 'Order ID', kind: 'int', value: (c) => c.order.id },
  { header: 'Agent', value: agentOf },
  { header: 'Agent Phone', kind: 'phone', value: (c) => c.agentPhone },
  { header: 'Recipient', kind: 'phone', value: (c) => c.order.recipientNumber },
  { header: 'Network', value: (c) => c.network },
  { header: 'Order Amount (GHS)', kind: 'money', value: (c) => c.originalAmount },
  { header: 'Commission (GHS)', kind: 'money', value: (c) => c.commissionAmount },
  { header: 'Payment Status', value: (c) => c.paymentStatus },
  { header: 'Created At', kind: 'datetime', value: (c) => c.createdAt }
]

type Group = { key: string; label: string; totalOrders: number; totalRevenue: number; totalCommission: number; averageCommission: number }
const ANALYTICS: CsvColumn<Group>[] = [
  { header: 'Group', value: (g) => g.label },
  { header: 'Orders', kind: 'int', value: (g) => g.totalOrders },
  { header: 'Revenue (GHS)', kind: 'money', value: (g) => g.totalRevenue },
  { header: 'Commission (GHS)', kind: 'money', value: (g) => g.totalCommission },
  { header: 'Average Commission (GHS)', kind: 'money', value: (g) => g.averageCommission }
]

type Entry = {
  rank: number
  agentId: number
  agentName: string
  agentPhone: string
  totalOrders: number
  totalRevenue: number
  totalCommission: number
  tier: string | null
  parentMargin: number
}
const LEADERBOARD: CsvColumn<Entry>[] = [
  { header: 'Rank', kind: 'int', value: (e) => e.rank },
  { header: 'Agent ID', kind: 'int', value: (e) => e.agentId },
  { header: 'Agent', value: (e) => e.agentName },
  { header: 'Phone', kind: 'phone', value: (e) => e.agentPhone },
  { header: 'Orders', kind: 'int', value: (e) => e.totalOrders },
  { header: 'Revenue (GHS)', kind: 'money', value: (e) => e.totalRevenue },
  { header: 'Commission (GHS)', kind: 'money', value: (e) => e.totalCommission },
  { header: 'Tier', value: (e) => e.tier ?? '' },
  { header: 'Parent margins (GHS)', kind: 'money', value: (e) => e.parentMargin }
]

/** /api/commission-analytics: totals, groupings, leaderboard, networks, the archive and its exports. Admins only. */
export function commissionAnalyticsRouter(services: Services) {
  const r = Router()
  const reports = services.commissionReports
  r.use(requireAdmin)

  r.get('/summary', async (_req, res) => {
    res.json(await reports.analyticsSummary())
  })
  r.get('/analytics', async (req, res) => {
    res.json(await reports.analytics(valid(analyticsQuery, req.query)))
  })
  r.get('/agent-leaderboard', async (req, res) => {
    res.json(await reports.leaderboard(valid(leaderboardQuery, req.query)))
  })
  r.get('/network-analytics', async (req, res) => {
    res.json(await reports.networkAnalytics(valid(networksQuery, req.query)))
  })
  r.get('/archived', async (req, res) => {
    res.json(await reports.archived(valid(archivedQuery, req.query)))
  })
  r.post('/archive', async (req, res) => {
    res.json(await reports.archive(valid(archiveBody, req.body), ctxOf(req)))
  })
  r.post('/archive-all', async (req, res) => {
    res.json(await reports.archiveAll(valid(archiveAllBody, req.body), ctxOf(req)))
  })

  r.get('/export/csv', async (req, res) => {
    await reports.recordExport('archived', ctxOf(req))
    await sendCsv(req, res, `archived_commissions_${today()}.csv`, ARCHIVED, reports.stream('archived'))
  })
  r.get('/export/current-csv', async (req, res) => {
    await reports.recordExport('current', ctxOf(req))
    await sendCsv(req, res, `current_commissions_${today()}.csv`, CURRENT, reports.stream('current'))
  })
  r.get('/export/analytics-csv', async (req, res) => {
    const a = await reports.analytics(valid(analyticsQuery, req.query))
    await reports.recordExport('analytics', ctxOf(req))
    const total = { key: 'total', label: 'Total', ...a.totalStats }
    await sendCsv(req, res, `commission_analytics_${a.groupBy}_${today()}.csv`, ANALYTICS, [...a.groupByData, total])
  })
  r.get('/export/leaderboard-csv', async (req, res) => {
    const l = await reports.leaderboard(valid(leaderboardQuery, req.query))
    await reports.recordExport('leaderboard', ctxOf(req))
    await sendCsv(req, res, `agent_performance_${today()}.csv`, LEADERBOARD, l.leaderboard)
  })
  return r
}
