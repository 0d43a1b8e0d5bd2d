import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { requireRole } from '../../middleware/auth.ts'
import { ctxOf } from '../../ctx.ts'

/** The agent's side of /api/admin-messages (the admins' side is index.ts on the same path). */
export function inboxRouter(services: Services) {
  const r = Router()
  const agentOnly = requireRole('AGENT')

  r.get('/my-messages', agentOnly, async (req, res) => {
    // Spec section 7: `messages[]` inside an object (it was a bare array).
    res.json({ messages: await services.inbox.myMessages(ctxOf(req), { limit: Number(req.query.limit) || undefined }) })
  })

  r.get('/unread-count', agentOnly, async (req, res) => {
    res.json(await services.inbox.unreadCount(ctxOf(req)))
  })

  r.patch('/:id/read', agentOnly, async (req, res) => {
    res.json(await services.inbox.markRead(req.params.id, ctxOf(req)))
  })

  return r
}
