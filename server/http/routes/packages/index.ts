import { Router } from 'express'
import { PACKAGE_FILL } from '../../../services/packages/admin.ts'
import type { Services } from '../../../services/index.ts'
import type { PackageRow } from '../../../services/packages/index.ts'
import { ctxOf } from '../../ctx.ts'
import { sendCachedJson } from '../../json-cache.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { validForm } from '../../validate.ts'
import { saveBody } from './schema.ts'

/** GET /api/packages[?network=]: active packages by ascending size (admins also see inactive ones). */
export function packagesRouter(services: Services) {
  const r = Router()
  r.get('/', async (req, res) => {
    const network = typeof req.query.network === 'string' && req.query.network !== '' ? req.query.network : undefined
    if (req.user?.role === 'ADMIN') return void res.json((await services.packages.listAll({ network })).map(services.packages.present))
    // The active list is a cached array: its JSON is made once per catalogue version.
    sendCachedJson(res, await services.packages.listActive({ network }), (rows: PackageRow[]) => rows.map(services.packages.present))
  })
  return r
}

/** POST /api/packages (create, or update with id). GET /api/packages belongs to the storefront router. */
export function packagesAdminRouter(services: Services) {
  const r = Router()
  r.post('/', requireAdmin, async (req, res) => {
    const { package: pkg, created } = await services.packagesAdmin.save(validForm(saveBody, req.body, PACKAGE_FILL), ctxOf(req))
    res.status(created ? 201 : 200).json({ message: created ? 'Package created' : 'Package updated', package: pkg })
  })
  return r
}
