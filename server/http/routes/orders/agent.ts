import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { requireRole } from '../../middleware/auth.ts'
import { ctxOf } from '../../ctx.ts'

/**
 * GET /api/orders for agents: their own orders only. Mounted after the public lookup (index.ts)
 * and the admin list (admin.ts), which pass everything else on; whoever reaches this is
 * answered 401/403 unless they are an agent.
 */
export function ordersAgentRouter(services: Services) {
  const r = Router()
  r.get('/', requireRole('AGENT'), async (req, res) => {
    res.json(await services.agentOrders.list(req.query, ctxOf(req)))
  })
  return r
}
