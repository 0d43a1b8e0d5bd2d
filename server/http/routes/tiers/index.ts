import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin, requireRole } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { moveBody, pricesBody, tierBody } from './schema.ts'

/** Sub-agents (ADR 0041): the parent's list, prices and actions, and the sub-agent's view of its parent. */
export function subAgentsRouter(services: Services) {
  const r = Router()
  r.use(requireRole('AGENT'))
  r.get('/mine', async (req, res) => {
    res.json(await services.subAgents.mine(ctxOf(req)))
  })
  r.put('/mine/prices', async (req, res) => {
    res.json({ prices: await services.subAgents.setPrices(req.body, ctxOf(req)) })
  })
  r.get('/parent', async (req, res) => {
    res.json(await services.subAgents.myParent(ctxOf(req)))
  })
  r.post('/:id/suspend', async (req, res) => {
    res.json({ subAgents: await services.subAgents.setSuspended(req.params.id, true, ctxOf(req)) })
  })
  r.post('/:id/reinstate', async (req, res) => {
    res.json({ subAgents: await services.subAgents.setSuspended(req.params.id, false, ctxOf(req)) })
  })
  r.post('/:id/approve', async (req, res) => {
    res.json({ subAgents: await services.subAgents.approve(req.params.id, ctxOf(req)) })
  })
  return r
}

/** Admin: /api/admin/tiers (the tiers, the price grid, an agent's tier and tree). */
export function tiersAdminRouter(services: Services) {
  const r = Router()
  r.use(requireAdmin)
  r.get('/', async (_req, res) => {
    res.json({ tiers: await services.tiers.list() })
  })
  r.post('/', async (req, res) => {
    res.json({ tiers: await services.tiers.save(valid(tierBody, req.body), ctxOf(req)) })
  })
  r.post('/:id/move', async (req, res) => {
    res.json({ tiers: await services.tiers.move(req.params.id, valid(moveBody, req.body), ctxOf(req)) })
  })
  r.get('/prices', async (_req, res) => {
    res.json(await services.tiers.grid())
  })
  r.put('/prices/:packageId', async (req, res) => {
    await services.tiers.setPackagePrices(req.params.packageId, valid(pricesBody, req.body), ctxOf(req))
    res.json(await services.tiers.grid())
  })
  r.put('/agents/:agentId', async (req, res) => {
    res.json(await services.tiers.setAgentTier(req.params.agentId, req.body, ctxOf(req)))
  })
  r.get('/agents/:agentId/tree', async (req, res) => {
    res.json(await services.subAgents.tree(req.params.agentId))
  })
  return r
}
