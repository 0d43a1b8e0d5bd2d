import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { ctxOf } from '../ctx.ts'
import { requireAdmin } from '../middleware/auth.ts'

/** /api/ussd-whitelist: admins only. */
export function whitelistRouter(services: Services) {
  const r = Router()
  r.use(requireAdmin)
  r.get('/', async (_req, res) => {
    res.json(await services.whitelist.list())
  })
  r.post('/bulk-import', async (req, res) => {
    res.json(await services.whitelist.bulkImport(req.body, ctxOf(req)))
  })
  r.post('/', async (req, res) => {
    res.status(201).json({ message: 'Number added', entry: await services.whitelist.add(req.body, ctxOf(req)) })
  })
  r.put('/:id', async (req, res) => {
    res.json({ message: 'Entry updated', entry: await services.whitelist.setActive(req.params.id, req.body, ctxOf(req)) })
  })
  r.delete('/:id', async (req, res) => {
    await services.whitelist.remove(req.params.id, ctxOf(req))
    res.json({ message: 'Entry deleted' })
  })
  return r
}
