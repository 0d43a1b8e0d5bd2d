import { Router, type Request, type RequestHandler, type Response } from 'express'
import { AppError } from '../../../lib/errors.ts'
import type { Services } from '../../../services/index.ts'
import type { ApiCaller, OrderKeyRead } from '../../../services/reseller-api/index.ts'
import { openApiDocument } from '../../../services/reseller-api/openapi.ts'
import { valid } from '../../validate.ts'
import { IDEMPOTENCY_KEY, idempotencyHeader, voucherOrderBody } from './schema.ts'

const callerOf = (res: Response) => res.locals.apiCaller as ApiCaller
const idempotencyKeyOf = (req: Request) => valid(idempotencyHeader, { key: req.get('Idempotency-Key') }).key
// Looked up beside the API key only when it may be one; the route answers a missing or bad one with its 400 after a 401, 403 or 429.
const sentOrderKey = (req: Request) => {
  const key = req.get('Idempotency-Key')
  return key !== undefined && IDEMPOTENCY_KEY.test(key) ? key : undefined
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
   * `orderKey`: an order's Idempotency-Key header, as sent, for the key's own statement to read its earlier use
   * beside the key (no statement of its own); the header is still checked at the route, after a 401, 403 or 429.
   */
  const authenticate =
    (orderKey?: (req: Request) => string | undefined): RequestHandler =>
    async (req, res, next) => {
      res.setHeader('Cache-Control', 'no-store')
      const { caller, rate, orderKeyRead } = await api.admit(req.headers.authorization, orderKey?.(req))
      res.setHeader('X-RateLimit-Limit', String(rate.limit))
      res.setHeader('X-RateLimit-Remaining', String(rate.remaining))
      res.setHeader('X-RateLimit-Reset', String(rate.resetSeconds))
      if (rate.limited) {
        res.setHeader('Retry-After', String(rate.resetSeconds))
        throw new AppError(429, `Rate limit of ${rate.limit} requests per minute exceeded. Retry after ${rate.resetSeconds} seconds.`)
      }
      res.locals.apiCaller = caller
      res.locals.orderKeyRead = orderKeyRead
      next()
    }

  r.post('/orders', authenticate(sentOrderKey), async (req, res) => {
    const out = await api.createOrder(callerOf(res), idempotencyKeyOf(req), req.body, res.locals.orderKeyRead as OrderKeyRead | undefined)
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
