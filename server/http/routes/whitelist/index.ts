import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { addBody, bulkBody, entryParams, statusBody } from './schema.ts'

/** /api/ussd-whitelist: admins only. */
export function whitelistRouter(services: Services) {
  const r = Router()
  r.use(requireAdmin)
  r.get('/', async (_req, res) => {
    res.json(await services.whitelist.list())
  })
  r.post('/bulk-import', async (req, res) => {
    res.json(await services.whitelist.bulkImport(valid(bulkBody, req.body).phoneNumbers, ctxOf(req)))
  })
  r.post('/', async (req, res) => {
    res.status(201).json({ message: 'Number added', entry: await services.whitelist.add(valid(addBody, req.body).phoneNumber, ctxOf(req)) })
  })
  r.put('/:id', async (req, res) => {
    res.json({
      message: 'Entry updated',
      entry: await services.whitelist.setActive(valid(entryParams, req.params).id, valid(statusBody, req.body).isActive, ctxOf(req))
    })
  })
  r.delete('/:id', async (req, res) => {
    await services.whitelist.remove(valid(entryParams, req.params).id, ctxOf(req))
    res.json({ message: 'Entry deleted' })
  })
  return r
}
