import { Router } from 'express'
import { toGhs } from '../../../lib/money.ts'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'

/** Admin: payments needing attention, refunds. Mounted under /api/admin. */
export function paymentsAdminRouter(services: Services) {
  const r = Router()
  const { payments } = services
  r.get('/payments/attention', requireAdmin, async (_req, res) => {
    res.json({ items: await payments.attention.list(), count: await payments.attention.count(), runs: await payments.reconciliationRuns(10) })
  })
  r.post('/payments/attention/:type/:id/resolve', requireAdmin, async (req, res) => {
    await payments.attention.resolve(req.params.type, req.params.id, ctxOf(req))
    res.json({ ok: true })
  })
  // "Reconcile now": a day or a range (body { from, to? }), answered when every day is done.
  r.post('/payments/reconcile', requireAdmin, async (req, res) => {
    const runs = await payments.reconcileNow(req.body, ctxOf(req))
    res.json({ runs, mismatches: runs.reduce((n, r) => n + r.mismatches, 0) })
  })
  r.post('/refunds/:id/retry', requireAdmin, async (req, res) => {
    await payments.refunds.retry(req.params.id, ctxOf(req))
    res.json({ ok: true })
  })
  const reasonOf = (body: unknown) => (body && typeof body === 'object' ? (body as Record<string, unknown>) : {}).reason
  const refunded = (refund: Awaited<ReturnType<Services['payments']['refundOrder']>>) => ({
    refundId: refund.id,
    transactionId: refund.transactionId,
    amount: toGhs(refund.amountPesewas),
    status: 'REFUND_PENDING'
  })
  r.post('/orders/:id/refund', requireAdmin, async (req, res) => {
    res.status(201).json(refunded(await payments.refundOrder(req.params.id, reasonOf(req.body), ctxOf(req))))
  })
  // A payment by its reference: a wallet top-up or a bulk order payment comes back out of the wallet (ADR 0045).
  r.post('/payments/:transactionId/refund', requireAdmin, async (req, res) => {
    res.status(201).json(refunded(await payments.refundPayment(req.params.transactionId, reasonOf(req.body), ctxOf(req))))
  })
  return r
}
