import { Router, type RequestHandler } from 'express'
import { forbidden, notFound } from '../../../lib/errors.ts'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { callbackUrlOf } from '../orders/payer.ts'
import { payBody, replyBody, simulatorMessageBody } from './schema.ts'

/**
 * WhatsApp (docs/whatsapp.md): the simulator's customer (only while no WhatsApp account is configured), a payment
 * link's page and the admins' handed-off chats. Meta's webhook is `whatsappCallbacksRouter`'s (ADR 0089).
 */
export function whatsappRouter(services: Services) {
  const r = Router()
  const wa = services.whatsapp
  const { env } = services.deps

  // Like the USSD simulator: anyone in development, admins elsewhere; never once a real account is set.
  const simulator: RequestHandler = (req, _res, next) => {
    if (!wa.simulated) return next(notFound())
    if (env.NODE_ENV === 'production' && req.user?.role !== 'ADMIN') return next(forbidden('Admins only'))
    next()
  }
  r.post('/simulator/messages', simulator, async (req, res) => {
    const { waId } = await wa.simulate(valid(simulatorMessageBody, req.body))
    res.json({ waId, messages: await wa.transcript(waId) })
  })
  r.get('/simulator/messages', simulator, async (req, res) => {
    const from = String(req.query.from ?? '').replace(/\D/g, '')
    res.json({ messages: from ? await wa.transcript(from.startsWith('0') ? `233${from.slice(1)}` : from) : [] })
  })

  // A payment link's page pays its order: the token is the only key, the amount the order's.
  r.post('/pay/:token', async (req, res) => {
    res.json(await wa.payByLink(req.params.token, valid(payBody, req.body), { ...ctxOf(req), callbackUrl: callbackUrlOf(req, env) }))
  })

  r.get('/chats', requireAdmin, async (_req, res) => {
    res.json({ chats: await wa.waiting() })
  })
  r.get('/chats/:waId', requireAdmin, async (req, res) => {
    res.json({ messages: await wa.transcript(String(req.params.waId)) })
  })
  r.post('/chats/:waId/reply', requireAdmin, async (req, res) => {
    await wa.reply(String(req.params.waId), valid(replyBody, req.body).text)
    res.json({ sent: true })
  })
  r.post('/chats/:waId/release', requireAdmin, async (req, res) => {
    await wa.release(String(req.params.waId))
    res.json({ released: true })
  })
  return r
}
