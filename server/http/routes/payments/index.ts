import { Router } from 'express'
import { badRequest } from '../../../lib/errors.ts'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { valid } from '../../validate.ts'
import { orderLimit } from '../orders/limits.ts'
import { callbackUrlOf, payerOf } from '../orders/payer.ts'
import { orderPaymentBody, paymentKindBody } from './schema.ts'

/** POST /api/payment/request and GET /api/payment/status/:transactionId. Client amounts are never read. */
export function paymentRouter(services: Services) {
  const r = Router()
  const { env } = services.deps

  r.post('/request', orderLimit(services), async (req, res) => {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, any>
    const ctx = ctxOf(req)
    const payer = payerOf(body)
    const callbackUrl = callbackUrlOf(req, env)
    const { type } = valid(paymentKindBody, { type: body.type })
    if (type === 'afa_registration' || type === 'afa') {
      res.json(await services.afa.requestPayment({ ...body, ...payer, callbackUrl }, ctx))
      return
    }
    const tid = body.transactionId ?? body.paymentTransactionId
    const { transactionId } = valid(orderPaymentBody, { transactionId: tid })
    if (transactionId !== undefined) {
      const forOrder = await services.orders.requestPaymentForOrder({ transactionId, ...payer, callbackUrl }, ctx)
      if (forOrder) {
        res.json(forOrder)
        return
      }
    }
    if (body.packageId === undefined) throw badRequest('No order found for this transaction. Please start the purchase again.')
    // No order yet: one call places it at the server's price.
    const { order, payment } = await services.orders.placeOrder(
      { packageId: body.packageId, recipientNumber: body.recipientNumber, transactionId: tid, channel: 'web', callbackUrl, ...payer },
      ctx
    )
    res.json({ ...payment, orderId: order.id, order })
  })

  // The payer's voucher / OTP when the gateway asks for one (Telecel: "dial *110# to generate a voucher").
  r.post('/:transactionId/code', orderLimit(services), async (req, res) => {
    const body = (req.body && typeof req.body === 'object' ? req.body : {}) as Record<string, unknown>
    res.json(await services.payments.submitCode(String(req.params.transactionId), body.code, ctxOf(req)))
  })

  r.get('/status/:transactionId', async (req, res) => {
    res.json(await services.payments.status(req.params.transactionId, ctxOf(req), req.query.phone))
  })

  return r
}
