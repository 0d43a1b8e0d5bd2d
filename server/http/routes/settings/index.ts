import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { ctxOf } from '../../ctx.ts'
import { sendCachedJson } from '../../json-cache.ts'
import { valid } from '../../validate.ts'
import { settingsBody } from './schema.ts'

export function settingsRouter(services: Services) {
  const r = Router()
  r.get('/', async (req, res) => {
    if (req.user?.role === 'ADMIN') return void res.json(await services.settings.get())
    // The public copy is one object per settings version: its JSON is made once.
    sendCachedJson(res, await services.settings.getPublic())
  })
  r.put('/', requireAdmin, async (req, res) => {
    res.json(await services.settings.update(valid(settingsBody, req.body), ctxOf(req)))
  })
  return r
}
