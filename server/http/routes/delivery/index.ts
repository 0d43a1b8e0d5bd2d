import { Router, type RequestHandler } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { simulatorBody } from './schema.ts'

/**
 * /api/delivery: the admin overview (failed count, vendor balances), the SMS outbox list, and the
 * delivery simulator's control (docs/delivery.md): in development anyone, otherwise admins only.
 */
export function deliveryRouter(services: Services) {
  const r = Router()
  const devOrAdmin: RequestHandler = (req, res, next) => (services.deps.env.NODE_ENV === 'production' ? requireAdmin(req, res, next) : next())
  r.get('/overview', requireAdmin, async (_req, res) => {
    res.json(await services.delivery.overview())
  })
  r.get('/sms', requireAdmin, async (req, res) => {
    res.set('Cache-Control', 'no-store') // may hold one-time codes on a fresh machine
    res.json(await services.sms.list(req.query))
  })
  r.get('/simulator', devOrAdmin, (_req, res) => {
    res.json({ simulator: services.delivery.simulatorState() })
  })
  r.post('/simulator', devOrAdmin, (req, res) => {
    res.json({ message: 'Simulator updated', simulator: services.delivery.simulatorControl(valid(simulatorBody, req.body), ctxOf(req)) })
  })
  return r
}
