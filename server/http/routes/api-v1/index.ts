import { Router, type Request, type RequestHandler, type Response } from 'express'
import { AppError } from '../../../lib/errors.ts'
import type { Services } from '../../../services/index.ts'
import type { ApiCaller, OrderReads, OrderReadsAsked } from '../../../services/reseller-api/index.ts'
import { openApiDocument } from '../../../services/reseller-api/openapi.ts'
import { valid } from '../../validate.ts'
import { IDEMPOTENCY_KEY, idempotencyHeader, voucherOrderBody } from './schema.ts'

const callerOf = (res: Response) => res.locals.apiCaller as ApiCaller
/** A key the pattern takes is the key as it came (the schema's only rule); Joi is asked only to word the answer to a bad one. */
const idempotencyKeyOf = (req: Request) => {
  const key = req.get('Idempotency-Key')
  return key !== undefined && IDEMPOTENCY_KEY.test(key) ? key : valid(idempotencyHeader, { key }).key
}
/**
 * What an order's request asks the API key's statement to read beside the key: the Idempotency-Key when it may be one
 * (the route answers a missing or bad one with its 400, after a 401, 403 or 429) and the package when the body names
 * one by a plain id (the orders' check decides the body's fate; a package read for another id is not used).
 */
const orderReadsAsked = (req: Request): OrderReadsAsked => {
  const key = req.get('Idempotency-Key')
  const id = (req.body as { packageId?: unknown } | undefined)?.packageId
  const packageId = typeof id === 'number' || (typeof id === 'string' && /^[1-9][0-9]{0,9}$/.test(id)) ? Number(id) : NaN
  return {
    orderKey: key !== undefined && IDEMPOTENCY_KEY.test(key) ? key : null,
    packageId: Number.isSafeInteger(packageId) && packageId > 0 && packageId <= 2_147_483_647 ? packageId : null
  }
}

/**
 * The reseller API, `/api/v1` (ADR 0014): API-key auth, a per-key rate limit, agent prices,
 * the wallet balance, wallet-paid orders with Idempotency-Key. Every route is described in
 * services/reseller-api/openapi.ts (the /developers page renders it too), and a test calls each one against the document.
 */
export function apiV1Router(services: Services) {
  const r = Router()
  const api = services.resellerApi

  r.get('/openapi.json', (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300')
    res.json(openApiDocument)
  })

  /**
   * `forOrder`: what an order's request asks the key's own statement to read beside the key (no statements of their own).
   */
  const authenticate =
    (forOrder?: (req: Request) => OrderReadsAsked): RequestHandler =>
    async (req, res, next) => {
      res.setHeader('Cache-Control', 'no-store')
      const { caller, rate, orderReads } = await api.admit(req.headers.authorization, forOrder?.(req))
      res.setHeader('X-RateLimit-Limit', String(rate.limit))
      res.setHeader('X-RateLimit-Remaining', String(rate.remaining))
      res.setHeader('X-RateLimit-Reset', String(rate.resetSeconds))
      if (rate.limited) {
        res.setHeader('Retry-After', String(rate.resetSeconds))
        throw new AppError(429, `Rate limit of ${rate.limit} requests per minute exceeded. Retry after ${rate.resetSeconds} seconds.`)
      }
      res.locals.apiCaller = caller
      res.locals.orderReads = orderReads
      next()
    }

  r.post('/orders', authenticate(orderReadsAsked), async (req, res) => {
    const out = await api.createOrder(callerOf(res), idempotencyKeyOf(req), req.body, res.locals.orderReads as OrderReads | undefined)
    if (out.replayed) res.setHeader('Idempotent-Replayed', 'true')
    res.status(201).json({ order: out.order })
  })

  r.use(authenticate())

  r.get('/packages', async (_req, res) => {
    res.json(await api.listPackages(callerOf(res)))
  })

  r.get('/balance', async (_req, res) => {
    res.json(await api.balance(callerOf(res)))
  })

  r.get('/orders/:id', async (req, res) => {
    res.json({ order: await api.getOrder(callerOf(res), req.params.id) })
  })

  // Bulk orders (ADR 0039): many lines, one wallet debit, once per Idempotency-Key.
  r.post('/batches', async (req, res) => {
    const out = await services.batchApi.create(callerOf(res).actor, idempotencyKeyOf(req), req.body)
    if (out.replayed) res.setHeader('Idempotent-Replayed', 'true')
    res.status(201).json({ batch: out.batch, lines: out.lines })
  })

  r.get('/batches/:id', async (req, res) => {
    res.json(await services.batchApi.get(callerOf(res).agentId, req.params.id))
  })

  // Result-checker cards, paid from the wallet (services/reseller-api/vouchers.ts).
  r.get('/vouchers/products', async (_req, res) => {
    res.json(await services.apiVouchers.listProducts(callerOf(res)))
  })

  r.post('/vouchers/orders', async (req, res) => {
    const key = idempotencyKeyOf(req)
    const out = await services.apiVouchers.createOrder(callerOf(res), key, valid(voucherOrderBody, req.body && typeof req.body === 'object' ? req.body : {}))
    if (out.replayed) res.setHeader('Idempotent-Replayed', 'true')
    res.status(201).json({ purchase: out.purchase })
  })

  r.use((_req, res) => {
    res.status(404).json({ error: 'Not found' })
  })
  return r
}
