import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import type { PackageRow } from '../../services/packages/index.ts'
import { sendCachedJson } from '../json-cache.ts'

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
