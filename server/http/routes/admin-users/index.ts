import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { roleBody, userIdParams, usersQuery } from './schema.ts'

/** Mounted at /api/admin, shared with other admin routers: each route guards itself so unknown paths fall through. */
export function adminUsersRouter(services: Services) {
  const r = Router()
  r.get('/users', requireAdmin, async (req, res) => {
    res.json(await services.usersAdmin.list(valid(usersQuery, req.query)))
  })
  r.patch('/users/:id/role', requireAdmin, async (req, res) => {
    const { id } = valid(userIdParams, req.params)
    res.json(await services.usersAdmin.setRole(id, valid(roleBody, req.body), ctxOf(req)))
  })
  r.post('/users/:id/password-reset', requireAdmin, async (req, res) => {
    res.json(await services.recovery.adminSend(req.params.id, ctxOf(req)))
  })
  r.get('/agents', requireAdmin, async (_req, res) => {
    res.json(await services.usersAdmin.listAgents())
  })
  return r
}
