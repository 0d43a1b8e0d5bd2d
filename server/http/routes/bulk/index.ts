import { Router } from 'express'
import { toCsv } from '../../../lib/csv.ts'
import type { BatchLineView, Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin, requireRole } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { orderLimit } from '../orders/limits.ts'
import { listQuery, sourceBody } from './schema.ts'

const RESULT_COLUMNS = [
  { header: 'Order', kind: 'int' as const, value: (l: BatchLineView) => l.orderId },
  { header: 'Recipient', value: (l: BatchLineView) => l.recipientNumber },
  { header: 'Network', value: (l: BatchLineView) => l.network },
  { header: 'Bundle', value: (l: BatchLineView) => l.bundle },
  { header: 'Amount (GHS)', kind: 'money' as const, value: (l: BatchLineView) => l.amount },
  { header: 'Payment', value: (l: BatchLineView) => l.paymentStatus },
  { header: 'Delivery', value: (l: BatchLineView) => l.deliveryStatus },
  { header: 'Vendor reference', value: (l: BatchLineView) => l.reference },
  { header: 'Error', value: (l: BatchLineView) => l.error }
]

const attachment = (name: string) => `attachment; filename="${name}"`

/** Bulk orders (/api/bulk, ADR 0039): the agent's preview, payment, batches and their results; the admins' list. */
export function bulkRouter(services: Services) {
  const r = Router()
  const agent = requireRole('AGENT')
  const { bulk } = services

  r.get('/template.csv', (_req, res) => {
    res.setHeader('Content-Type', 'text/csv; charset=utf-8')
    res.setHeader('Content-Disposition', attachment('bulk-order-template.csv'))
    res.send(bulk.template())
  })

  r.get('/admin', requireAdmin, async (req, res) => {
    res.json(await bulk.adminList(valid(listQuery, req.query)))
  })

  r.post('/preview', agent, async (req, res) => {
    res.json(await bulk.preview(valid(sourceBody, req.body), ctxOf(req)))
  })

  r.post('/', agent, orderLimit(services), async (req, res) => {
    res.status(201).json(await bulk.accept(valid(sourceBody, req.body), ctxOf(req)))
  })

  r.get('/', agent, async (req, res) => {
    res.json(await bulk.mine(valid(listQuery, req.query), ctxOf(req)))
  })

  r.get('/:id', requireRole('AGENT', 'ADMIN'), async (req, res) => {
    res.json(await bulk.get(req.params.id, ctxOf(req)))
  })

  r.get('/:id/status', agent, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ batch: await bulk.status(req.params.id, ctxOf(req)) })
  })

  r.get('/:id/failed', agent, async (req, res) => {
    res.json({ text: await bulk.failedText(req.params.id, ctxOf(req)) })
  })

  r.get('/:id/results.csv', requireRole('AGENT', 'ADMIN'), async (req, res) => {
    const { batch, lines } = await bulk.get(req.params.id, ctxOf(req))
    res.setHeader('Content-Type', 'text/csv; charset=utf-8')
    res.setHeader('Content-Disposition', attachment(`bulk-order-${batch.id}-results.csv`))
    res.send(toCsv(RESULT_COLUMNS, lines))
  })
  return r
}
