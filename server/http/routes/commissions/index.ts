import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { listQuery, summaryQuery } from './schema.ts'

/** /api/commissions: the current (not archived) commissions and their summary. */
export function commissionsRouter(services: Services) {
  const r = Router()
  r.use(requireAdmin)
  r.get('/summary', async (req, res) => {
    res.json(await services.commissionReports.summary(valid(summaryQuery, req.query)))
  })
  r.get('/', async (req, res) => {
    res.json(await services.commissionReports.list(valid(listQuery, req.query)))
  })
  return r
}
