import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { requireAdmin, requireRole } from '../middleware/auth.ts'
import { ctxOf } from '../ctx.ts'
import { orderLimit } from './orders/limits.ts'
import { callbackUrlOf } from './orders/payer.ts'

const bodyOf = (body: unknown) => (body && typeof body === 'object' ? body : {}) as Record<string, any>

/** Agents' shops: the agent's own (/api/shops/mine...), a shop's public view and purchases (/api/shops/:slug...). */
export function shopsRouter(services: Services) {
  const r = Router()
  const agent = requireRole('AGENT')
  const { env } = services.deps

  r.get('/mine', agent, async (req, res) => {
    res.json(await services.shops.mine(ctxOf(req)))
  })
  r.put('/mine', agent, async (req, res) => {
    res.json({ shop: await services.shops.saveMine(req.body, ctxOf(req)) })
  })
  r.put('/mine/prices', agent, async (req, res) => {
    res.json({ prices: await services.shops.setPrices(req.body, ctxOf(req)) })
  })
  r.get('/mine/checkers', agent, async (req, res) => {
    res.json({ prices: await services.shopCheckers.mine(ctxOf(req)) })
  })
  r.put('/mine/checkers', agent, async (req, res) => {
    res.json({ prices: await services.shopCheckers.setPrices(req.body, ctxOf(req)) })
  })
  r.put('/mine/whatsapp', agent, async (req, res) => {
    res.json({ shop: await services.shops.setWhatsappOrders(req.body, ctxOf(req)) })
  })
  r.get('/mine/series', agent, async (req, res) => {
    res.json({ days: await services.shops.series(ctxOf(req), Number(req.query.days) || 30) })
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
    res.json({ shop: await services.shops.setStatus(req.params.id, 'SUSPENDED', bodyOf(req.body).reason, ctxOf(req)) })
  })
  r.post('/shops/:id/unsuspend', requireAdmin, async (req, res) => {
    res.json({ shop: await services.shops.setStatus(req.params.id, 'ACTIVE', null, ctxOf(req)) })
  })
  return r
}
