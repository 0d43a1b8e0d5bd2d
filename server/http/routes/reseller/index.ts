import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireRole } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { keyBody, webhookBody } from './schema.ts'

/** The agent portal's side of the reseller API: its keys and its webhook (/api/reseller). */
export function resellerRouter(services: Services) {
  const r = Router()
  const { keys, webhooks } = services.resellerApi
  const webhook = webhookBody(services.deps.env.NODE_ENV === 'production')
  r.use(requireRole('AGENT'), (_req, res, next) => {
    // Keys and secrets are shown once; nothing here may be cached.
    res.setHeader('Cache-Control', 'no-store')
    next()
  })

  r.get('/keys', async (req, res) => {
    res.json({ keys: await keys.list(ctxOf(req)) })
  })
  r.post('/keys', async (req, res) => {
    res.status(201).json(await keys.create(valid(keyBody, req.body), ctxOf(req)))
  })
  r.delete('/keys/:id', async (req, res) => {
    res.json(await keys.revoke(req.params.id, ctxOf(req)))
  })

  r.get('/webhook', async (req, res) => {
    res.json(await webhooks.settings(ctxOf(req)))
  })
  r.put('/webhook', async (req, res) => {
    res.json(await webhooks.update(valid(webhook, req.body), ctxOf(req)))
  })
  r.post('/webhook/secret', async (req, res) => {
    res.status(201).json(await webhooks.rotateSecret(ctxOf(req)))
  })
  return r
}
