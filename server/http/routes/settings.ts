import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { requireAdmin } from '../middleware/auth.ts'
import { ctxOf } from '../ctx.ts'

export function settingsRouter(services: Services) {
  const r = Router()
  r.get('/', async (req, res) => {
    res.json(req.user?.role === 'ADMIN' ? await services.settings.get() : await services.settings.getPublic())
  })
  r.put('/', requireAdmin, async (req, res) => {
    res.json(await services.settings.update(req.body, ctxOf(req)))
  })
  return r
}
