import { Router, type RequestHandler } from 'express'
import { notFound } from '../../lib/errors.ts'
import type { Services } from '../../services/index.ts'
import { ctxOf } from '../ctx.ts'

/**
 * The payment simulator's calls (docs/payments.md): the phone page's prompt list, the checkout's
 * details, and approve/decline by reference for people, tests and scripts. All 404 once Paystack is configured.
 */
export function simulatorRouter(services: Services) {
  const r = Router()
  const active: RequestHandler = (_req, _res, next) => next(services.simulator.active ? undefined : notFound())
  r.use(active)
  r.get('/prompts', async (req, res) => {
    res.json({ prompts: await services.simulator.prompts(req.query.phone, ctxOf(req)), ttlSeconds: services.simulator.ttlSeconds })
  })
  r.get('/payments/:reference', async (req, res) => {
    res.json(await services.simulator.checkout(req.params.reference, ctxOf(req), req.query.phone))
  })
  // 202: the answer is saved and the payment's settlement is still being confirmed.
  const answer =
    (decide: (reference: string) => Promise<{ beingConfirmed?: boolean }>): RequestHandler =>
    async (req, res) => {
      const answered = await decide(String(req.params.reference))
      res.status(answered.beingConfirmed ? 202 : 200).json(answered)
    }
  r.post('/payments/:reference/approve', answer(services.simulator.approve))
  r.post('/payments/:reference/decline', answer(services.simulator.decline))
  return r
}
