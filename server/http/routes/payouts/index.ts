import { Router, type RequestHandler } from 'express'
import { toCsv } from '../../../lib/csv.ts'
import type { Services } from '../../../services/index.ts'
import type { PayoutView } from '../../../services/payouts/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin, requireRole } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { amountBody, listQuery, numberBody, payoutIdParams, reasonBody, simulatorBody } from './schema.ts'

const CSV_COLUMNS = [
  { header: 'Payout', kind: 'int' as const, value: (p: PayoutView) => p.id },
  { header: 'Requested', kind: 'datetime' as const, value: (p: PayoutView) => p.createdAt },
  { header: 'Agent', value: (p: PayoutView) => p.agentName },
  { header: 'Agent phone', kind: 'phone' as const, value: (p: PayoutView) => p.agentPhone },
  { header: 'Network', value: (p: PayoutView) => p.network },
  { header: 'Payout number', kind: 'phone' as const, value: (p: PayoutView) => p.phone },
  { header: 'Account name', value: (p: PayoutView) => p.accountName },
  { header: 'Amount (GHS)', kind: 'money' as const, value: (p: PayoutView) => p.amount },
  { header: 'Fee (GHS)', kind: 'money' as const, value: (p: PayoutView) => p.fee },
  { header: 'Status', value: (p: PayoutView) => p.status },
  { header: 'Reference', value: (p: PayoutView) => p.reference },
  { header: 'Channel', value: (p: PayoutView) => p.channel },
  { header: 'Message', value: (p: PayoutView) => p.message },
  { header: 'Updated', kind: 'datetime' as const, value: (p: PayoutView) => p.updatedAt }
]

// A malformed id names no payout: the service answers 404 for it, as for a missing one.
const idOf = (params: unknown) => {
  const { value, error } = payoutIdParams.validate(params)
  return error ? 0 : value.id
}
const query = (q: Record<string, unknown>) => Object.fromEntries(Object.entries(q).filter(([, v]) => typeof v === 'string'))

/** /api/payouts: the agent's payout number and withdrawals; the transfers simulator's control (docs/payments.md). */
export function payoutsRouter(services: Services) {
  const r = Router()
  const agent = requireRole('AGENT')
  const devOrAdmin: RequestHandler = (req, res, next) => (services.deps.env.NODE_ENV === 'production' ? requireAdmin(req, res, next) : next())
  r.get('/', agent, async (req, res) => {
    res.json(await services.payouts.mine(ctxOf(req)))
  })
  r.post('/', agent, async (req, res) => {
    res.status(201).json(await services.payouts.request(valid(amountBody, req.body), ctxOf(req)))
  })
  r.post('/number', agent, async (req, res) => {
    res.status(201).json(await services.payouts.addNumber(valid(numberBody, req.body), ctxOf(req)))
  })
  r.delete('/number', agent, async (req, res) => {
    res.json(await services.payouts.removeNumber(ctxOf(req)))
  })
  r.get('/simulator', devOrAdmin, (_req, res) => {
    res.json({ simulator: services.payouts.simulatorState() })
  })
  r.post('/simulator', devOrAdmin, (req, res) => {
    res.json({ message: 'Transfers simulator updated', simulator: services.payouts.simulatorControl(valid(simulatorBody, req.body), ctxOf(req)) })
  })
  return r
}

/** /api/admin/payouts: every payout by tab, approve, reject, retry, CSV; each action audited by the service. */
export function adminPayoutsRouter(services: Services) {
  const r = Router()
  r.use(requireAdmin)
  r.get('/', async (req, res) => {
    res.json(await services.payouts.list(valid(listQuery, query(req.query))))
  })
  r.get('/export.csv', async (req, res) => {
    const rows = await services.payouts.exportRows(valid(listQuery, query(req.query)), ctxOf(req))
    res.setHeader('Content-Type', 'text/csv; charset=utf-8')
    res.setHeader('Content-Disposition', `attachment; filename="payouts-${new Date().toISOString().slice(0, 10)}.csv"`)
    res.send(toCsv(CSV_COLUMNS, rows))
  })
  r.post('/:id/approve', async (req, res) => {
    res.json(await services.payouts.approve(idOf(req.params), ctxOf(req)))
  })
  r.post('/:id/reject', async (req, res) => {
    res.json(await services.payouts.reject(idOf(req.params), valid(reasonBody, req.body).reason, ctxOf(req)))
  })
  r.post('/:id/retry', async (req, res) => {
    res.status(201).json(await services.payouts.retry(idOf(req.params), ctxOf(req)))
  })
  return r
}
