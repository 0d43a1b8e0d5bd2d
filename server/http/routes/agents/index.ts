import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { requireAdmin, requireRole, requireUser } from '../../middleware/auth.ts'
import { ctxOf } from '../../ctx.ts'
import { valid } from '../../validate.ts'
import { agentIdParams, feeRequestBody, registerBody } from './schema.ts'

/** /api/agents: registration, the agent's profile, fee payment, PIN, and the admins' list and approval. */
export function agentsRouter(services: Services) {
  const r = Router()
  const { agents } = services

  r.post('/register', async (req, res) => {
    res.status(201).json(await agents.register(valid(registerBody, req.body), ctxOf(req)))
  })

  r.get('/', requireAdmin, async (req, res) => {
    res.json(await agents.list(ctxOf(req)))
  })

  r.get('/me', requireRole('AGENT'), async (req, res) => {
    res.json(await agents.me(ctxOf(req)))
  })

  r.post('/payment/status', requireRole('AGENT'), async (req, res) => {
    res.json(await agents.myFeePaymentStatus(ctxOf(req)))
  })

  r.post('/me/pin/reset', requireRole('AGENT'), async (req, res) => {
    // The PIN is shown once; nothing on the way may keep a copy.
    res.setHeader('Cache-Control', 'no-store')
    res.json(await agents.resetPin(ctxOf(req)))
  })

  r.get('/:id', requireUser, async (req, res) => {
    res.json(await agents.get(valid(agentIdParams, req.params).id, ctxOf(req)))
  })

  r.post('/:id/payment/request', requireRole('AGENT'), async (req, res) => {
    res.json(await agents.requestFeePayment(valid(agentIdParams, req.params).id, valid(feeRequestBody, req.body), ctxOf(req)))
  })

  r.get('/:id/payment/status', requireUser, async (req, res) => {
    res.json(await agents.feePaymentStatus(valid(agentIdParams, req.params).id, ctxOf(req)))
  })

  r.patch('/:id/approve', requireAdmin, async (req, res) => {
    res.json({ message: 'Agent approved', agent: await agents.setApproved(valid(agentIdParams, req.params).id, true, ctxOf(req)) })
  })

  r.patch('/:id/unapprove', requireAdmin, async (req, res) => {
    res.json({ message: 'Agent approval removed', agent: await agents.setApproved(valid(agentIdParams, req.params).id, false, ctxOf(req)) })
  })

  return r
}
