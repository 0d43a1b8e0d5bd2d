import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { ctxOf } from '../ctx.ts'
import { requireAdmin } from '../middleware/auth.ts'

/** POST /api/packages (create, or update with id). GET /api/packages belongs to the storefront router. */
export function packagesAdminRouter(services: Services) {
  const r = Router()
  r.post('/', requireAdmin, async (req, res) => {
    const { package: pkg, created } = await services.packagesAdmin.save(req.body, ctxOf(req))
    res.status(created ? 201 : 200).json({ message: created ? 'Package created' : 'Package updated', package: pkg })
  })
  return r
}
