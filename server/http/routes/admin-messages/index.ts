import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { listQuery, sendBody } from './schema.ts'

/**
 * Admin side of /api/admin-messages (send, history, delete). The agent inbox routes (my-messages,
 * unread-count, :id/read, in inbox.ts) share the mount, so each route guards itself.
 */
export function adminMessagesRouter(services: Services) {
  const r = Router()
  r.post('/', requireAdmin, async (req, res) => {
    res.status(201).json(await services.adminMessages.send(valid(sendBody, req.body), ctxOf(req)))
  })
  r.get('/', requireAdmin, async (req, res) => {
    res.json(await services.adminMessages.list(valid(listQuery, req.query)))
  })
  r.delete('/:id', requireAdmin, async (req, res) => {
    res.json(await services.adminMessages.remove(req.params.id, ctxOf(req)))
  })
  return r
}
