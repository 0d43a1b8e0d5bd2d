import { Router, type RequestHandler } from 'express'
import { requireActiveAgent } from '../../../services/agents/index.ts'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin, requireRole } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { orderLimit } from '../orders/limits.ts'
import { callbackUrlOf } from '../orders/payer.ts'
import { seriesQuery, shopBody, shopIdParams, suspendBody, whatsappBody } from './schema.ts'

const bodyOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, any>

/** Agents' shops: the agent's own (/api/shops/mine...), a shop's public view and purchases (/api/shops/:slug...). */
export function shopsRouter(services: Services) {
  const r = Router()
  // An agent not yet approved and paid hears that before anything about what it sent.
  const activeAgent: RequestHandler = (req, _res, next) => next(void requireActiveAgent(ctxOf(req), 'Shops'))
  r.use('/mine', requireRole('AGENT'), activeAgent)
  const { env } = services.deps

  r.get('/mine', async (req, res) => {
    res.json(await services.shops.mine(ctxOf(req)))
  })
  r.put('/mine', async (req, res) => {
    res.json({ shop: await services.shops.saveMine(valid(shopBody, bodyOf(req.body)), ctxOf(req)) })
  })
  r.put('/mine/prices', async (req, res) => {
    res.json({ prices: await services.shops.setPrices(req.body, ctxOf(req)) })
  })
  r.get('/mine/checkers', async (req, res) => {
    res.json({ prices: await services.shopCheckers.mine(ctxOf(req)) })
  })
  r.put('/mine/checkers', async (req, res) => {
    res.json({ prices: await services.shopCheckers.setPrices(req.body, ctxOf(req)) })
  })
  r.put('/mine/whatsapp', async (req, res) => {
    res.json({ shop: await services.shops.setWhatsappOrders(valid(whatsappBody, bodyOf(req.body)).on, ctxOf(req)) })
  })
  r.get('/mine/series', async (req, res) => {
    res.json({ days: await services.shops.series(ctxOf(req), valid(seriesQuery, req.query).days) })
  })

  r.get('/:slug', async (req, res) => {
    const view = await services.shops.publicView(req.params.slug)
    if (!view) return void res.status(404).json({ error: 'Shop not found', message: 'Shop not found' })
    res.json(view)
  })

  // The same body as POST /api/orders (package, recipient, payer phone and network or e-mail) plus the confirmed price.
  r.post('/:slug/orders', orderLimit(services), async (req, res) => {
    const body = bodyOf(req.body)
    const { order, payment } = await services.shops.placeOrder(
      req.params.slug,
      {
        packageId: body.packageId,
        price: body.price,
        recipientNumber: body.recipientNumber,
        transactionId: body.transactionId ?? body.paymentTransactionId,
        payerPhone: body.payerPhone ?? null,
        payerNetwork: body.payerNetwork ?? null,
        email: body.email ?? null,
        channel: 'web',
        callbackUrl: callbackUrlOf(req, env)
      },
      ctxOf(req)
    )
    res.status(201).json({ id: order.id, order, payment, ...payment })
  })

  // Checker cards: {productId, quantity, price (per card, as confirmed), payerPhone and payerNetwork, or email}.
  r.post('/:slug/checkers/orders', async (req, res) => {
    res.status(201).json(await services.shopCheckers.buy(req.params.slug, { ...bodyOf(req.body), callbackUrl: callbackUrlOf(req, env) }, ctxOf(req)))
  })
  return r
}

/** Admin: /api/admin/shops, suspend and reopen. */
export function shopsAdminRouter(services: Services) {
  const r = Router()
  r.get('/shops', requireAdmin, async (_req, res) => {
    res.json(await services.shops.list())
  })
  r.post('/shops/:id/suspend', requireAdmin, async (req, res) => {
    const { id } = valid(shopIdParams, req.params)
    res.json({ shop: await services.shops.setStatus(id, 'SUSPENDED', valid(suspendBody, bodyOf(req.body)).reason, ctxOf(req)) })
  })
  r.post('/shops/:id/unsuspend', requireAdmin, async (req, res) => {
    res.json({ shop: await services.shops.setStatus(valid(shopIdParams, req.params).id, 'ACTIVE', '', ctxOf(req)) })
  })
  return r
}
