import { Router, type Request, type RequestHandler } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { valid } from '../../validate.ts'
import { lookupLimit, underOrderLimit } from './limits.ts'
import { callbackUrlOf } from './payer.ts'
import { finalizeBody, lookupQuery, orderIdParams } from './schema.ts'

/**
 * Public orders: place one (POST /), look up by phone (GET /?phoneNumber=), Complete Order (PATCH /:id).
 * GET without phoneNumber passes on to the admin and agent routers mounted after this one.
 * The order itself is checked once, by the orders service that every channel shares.
 */
export function ordersRouter(services: Services) {
  const r = Router()
  const { env } = services.deps

  // Without ?phoneNumber= the request leaves this router for the admin and agent lists mounted after it.
  const onlyLookups: RequestHandler = (req, _res, next) => next(req.query.phoneNumber === undefined ? 'router' : undefined)
  r.get('/', onlyLookups, lookupLimit(services), async (req, res) => {
    const { phoneNumber } = valid(lookupQuery, req.query)
    res.json(await services.orders.lookupByPhone(phoneNumber, ctxOf(req)))
  })

  r.post('/', async (req, res) => {
    const { status, body } = await underOrderLimit(services, req, (admitted) => placeFrom(req, admitted))
    res.status(status).json(body)
  })

  /** POST /: the order as the body asks (paid from the wallet, with its payment requested, or unpaid for the spec's two-step client). */
  async function placeFrom(req: Request, admitted: Promise<void>) {
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
    // An agent paying from its wallet: paid at once, no gateway. With payer details the payment is
    // requested at once; without, the spec's two-step client pays next.
    const paid =
      body.payFrom === 'wallet'
        ? { ...input, payFrom: 'wallet' as const }
        : payer.payerPhone || payer.email || body.requestPayment === true
          ? { ...input, ...payer }
          : null
    if (paid) {
      const { order, payment } = await services.orders.placeOrder(paid, ctxOf(req), { admitted })
      return { status: 201, body: { id: order.id, order, payment, ...payment } }
    }
    const order = await services.orders.createOrder(input, ctxOf(req), { admitted })
    return { status: 201, body: { id: order.id, order } }
  }

  r.patch('/:id', async (req, res) => {
    const { id } = valid(orderIdParams, req.params)
    valid(finalizeBody, req.body)
    res.json(await services.orders.finalize(id, ctxOf(req)))
  })

  return r
}
