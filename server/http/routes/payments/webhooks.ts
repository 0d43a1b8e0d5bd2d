import { Router } from 'express'
import { answerJson } from '../../answer.ts'
import { formBody, jsonBody } from '../../middleware/body.ts'
import { rejectUnstorableText, requireKnownBody } from '../../middleware/input.ts'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { valid } from '../../validate.ts'
import { callbackQuery } from './schema.ts'

/**
 * Paystack: GET ?trxref=&reference= verifies after the checkout redirect (a browser's, through the app's whole
 * middleware); its signed webhook is `signedCallbacksRouter`'s.
 */
export function webhooksRouter(services: Services) {
  const r = Router()
  r.get('/paystack', async (req, res) => {
    const q = req.query
    const reference = typeof q.reference === 'string' && q.reference ? q.reference : typeof q.trxref === 'string' ? q.trxref : undefined
    res.json(await services.payments.verifyCallback(valid(callbackQuery, { reference }).reference, ctxOf(req), q.phone))
  })
  // Data vendors that confirm later call back with their order reference; the body is only a hint:
  // the order's status is asked from the vendor itself (SkyTech publishes no callback signature).
  r.post('/delivery/:vendor', async (req, res) => {
    const vendor = String(req.params.vendor)
    if (!services.delivery.vendors.get(vendor)) return void res.status(404).json({ error: 'Unknown vendor', message: 'Unknown vendor' })
    const body = (req.body ?? {}) as Record<string, unknown>
    const result = await services.delivery.callback(vendor, body.ref ?? body.reference)
    res.json(result ? { received: true, ...result } : { received: true, known: false })
  })
  return r
}

/**
 * The gateways' server-to-server callbacks whose proof is a signature over the body, mounted in app.ts before the
 * browser's middleware (ADR 0089): no session, sign-in, CSRF check, compression, page or asset lookup applies to a
 * caller that sends no cookie and reads a few bytes of JSON. The body goes through the app's own parsers and input
 * checks in the app's order, so a bad body gets the same answer; errors go on to the app's error handler.
 * Paystack: `x-paystack-signature` is the HMAC-SHA512 of the raw body, checked in the service in constant time.
 */
export function signedCallbacksRouter(services: Services) {
  const r = Router()
  r.post('/paystack', jsonBody(), formBody(), rejectUnstorableText, requireKnownBody, async (req, res) => {
    const result = await services.payments.paystackWebhook(req.rawBody, req.headers['x-paystack-signature'], req.body, { ip: req.ip ?? null, log: req.log })
    answerJson(res, result)
  })
  return r
}
