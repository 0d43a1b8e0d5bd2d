import { Router } from 'express'
import type { Services } from '../../services/index.ts'

/** GET /api/packages[?network=]: active packages by ascending size (admins also see inactive ones). */
export function packagesRouter(services: Services) {
  const r = Router()
  r.get('/', async (req, res) => {
    const network = typeof req.query.network === 'string' && req.query.network !== '' ? req.query.network : undefined
    const rows = req.user?.role === 'ADMIN' ? await services.packages.listAll({ network }) : await services.packages.listActive({ network })
    res.json(rows.map(services.packages.present))
  })
  return r
}
