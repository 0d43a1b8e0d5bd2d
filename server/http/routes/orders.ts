import { Router, type Request, type RequestHandler } from 'express'
import { normalizePhone } from '../../lib/phone.ts'
import { publicOrigin } from '../../lib/origin.ts'
import type { Services } from '../../services/index.ts'
import { ctxOf } from '../ctx.ts'

const phoneKey = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? normalizePhone(String(v)) || null : null)
const bodyOf = (req: Request) => (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, any>

/**
 * Each order can send a payment prompt to someone's phone, and the lookup answers for any number, so
 * neither may be used in bulk: generous per address (carrier NAT), tight per phone and account.
 */
export function orderLimit(services: Services): RequestHandler {
  return async (req, _res, next) => {
    const body = bodyOf(req)
    // A signed-in buyer (an agent pays from one phone for many customers) is limited per account; a
    // visitor per phone that the prompt rings (or the recipient when no payer is given yet).
    const phone = req.user ? null : (phoneKey(body.payerPhone ?? body.phone_number) ?? phoneKey(body.recipientNumber))
    await services.limits.take({ orderPerIp: req.ip ?? 'unknown', orderPerPhone: phone, orderPerAccount: req.user?.id ?? null })
    next()
  }
}

export function lookupLimit(services: Services): RequestHandler {
  return async (req, _res, next) => {
    await services.limits.take({ lookupPerIp: req.ip ?? 'unknown', lookupPerPhone: phoneKey(req.query.phoneNumber) })
    next()
  }
}

/** Where a card checkout brings the payer back: this site's /payment-callback. */
export function callbackUrlOf(req: Request, env: { PUBLIC_URL?: string }): string {
  return `${publicOrigin(env.PUBLIC_URL, { protocol: req.protocol, host: req.get('host') })}/payment-callback`
}

/** The payer fields as the spec's client names them (phone_number, network) or as ours does. */
export function payerOf(body: Record<string, any>) {
  return {
    payerPhone: body.payerPhone ?? body.phone_number ?? null,
    payerNetwork: body.payerNetwork ?? (body.phone_number !== undefined ? body.network : null) ?? null,
    email: body.email ?? null
  }
}

/**
 * Public orders: place one (POST /), look up by phone (GET /?phoneNumber=), Complete Order (PATCH /:id).
 * GET without phoneNumber passes on to the admin and agent routers mounted after this one.
 */
export function ordersRouter(services: Services) {
  const r = Router()
  const { env } = services.deps

  // Without ?phoneNumber= the request leaves this router for the admin and agent lists mounted after it.
  const onlyLookups: RequestHandler = (req, _res, next) => next(req.query.phoneNumber === undefined ? 'router' : undefined)
  r.get('/', onlyLookups, lookupLimit(services), async (req, res) => {
    res.json(await services.orders.lookupByPhone(Array.isArray(req.query.phoneNumber) ? '' : req.query.phoneNumber, ctxOf(req)))
  })

  r.post('/', orderLimit(services), async (req, res) => {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, any>
    const input = {
      packageId: body.packageId,
      network: body.network,
      dataSizeMB: body.dataSizeMB,
      recipientNumber: body.recipientNumber,
      transactionId: body.transactionId ?? body.paymentTransactionId,
      // The price the buyer confirmed (optional): placed at exactly it, or 409 with the current price.
      price: body.price,
      channel: 'web' as const,
      callbackUrl: callbackUrlOf(req, env)
    }
    const payer = { payerPhone: body.payerPhone ?? null, payerNetwork: body.payerNetwork ?? null, email: body.email ?? null }
    // An agent paying from its wallet: paid at once, no gateway.
    if (body.payFrom === 'wallet') {
      const { order, payment } = await services.orders.placeOrder({ ...input, payFrom: 'wallet' }, ctxOf(req))
      res.status(201).json({ id: order.id, order, payment, ...payment })
      return
    }
    // With payer details the payment is requested at once; without, the spec's two-step client pays next.
    if (payer.payerPhone || payer.email || body.requestPayment === true) {
      const { order, payment } = await services.orders.placeOrder({ ...input, ...payer }, ctxOf(req))
      res.status(201).json({ id: order.id, order, payment, ...payment })
      return
    }
    const order = await services.orders.createOrder(input, ctxOf(req))
    res.status(201).json({ id: order.id, order })
  })

  r.patch('/:id', async (req, res) => {
    res.json(await services.orders.finalize(req.params.id, req.body, ctxOf(req)))
  })

  return r
}
