import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { valid } from '../../validate.ts'
import { callbackQuery } from './schema.ts'

/**
 * Paystack: GET ?trxref=&reference= verifies after the checkout redirect; POST is the signed webhook
 * (x-paystack-signature over the raw body). No session cookie rides on these, so CSRF does not apply.
 */
export function webhooksRouter(services: Services) {
  const r = Router()
  r.get('/paystack', async (req, res) => {
    const q = req.query
    const reference = typeof q.reference === 'string' && q.reference ? q.reference : typeof q.trxref === 'string' ? q.trxref : undefined
    res.json(await services.payments.verifyCallback(valid(callbackQuery, { reference }).reference, ctxOf(req), q.phone))
  })
  r.post('/paystack', async (req, res) => {
    const result = await services.payments.paystackWebhook(req.rawBody, req.headers['x-paystack-signature'], req.body, { ip: req.ip ?? null, log: req.log })
    res.json(result)
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
