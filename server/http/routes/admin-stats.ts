import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { ctxOf } from '../ctx.ts'
import { requireAdmin } from '../middleware/auth.ts'

/** Mounted at /api/admin next to other admin routers, so each route carries its own guard. */
export function adminStatsRouter(services: Services) {
  const r = Router()
  r.get('/stats', requireAdmin, async (req, res) => {
    res.json(await services.adminStats.stats(ctxOf(req)))
  })
  r.get('/analytics', requireAdmin, async (req, res) => {
    res.json(await services.adminStats.analytics(req.query.range, ctxOf(req)))
  })
  return r
}
