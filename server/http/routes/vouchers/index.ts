import { Router } from 'express'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { callbackUrlOf } from '../orders/payer.ts'
import { cardIdParams, productBody, soldQuery, uploadBody, voidBody } from './schema.ts'

const phoneOf = (q: unknown) => (typeof q === 'string' ? q : undefined)

/** Result-checker vouchers: buying and "My checkers" (/api/vouchers), the admins' products, stock and sales (/api/vouchers/admin). */
export function vouchersRouter(services: Services) {
  const r = Router()
  const v = services.vouchers
  const { env } = services.deps

  r.get('/products', async (req, res) => {
    res.json({ products: await v.products.listPublic(req.user) })
  })

  // Mobile money or a card: the payment's view (the cards come with the purchase once it is paid).
  // An agent's wallet: paid and allocated at once, so the purchase with its cards comes back.
  r.post('/orders', async (req, res) => {
    const ctx = ctxOf(req)
    const body = req.body as Record<string, string | null>
    if (body.payFrom === 'wallet') {
      const { transactionId } = await v.buyFromWallet(body, ctx)
      return void res.status(201).json({ purchase: await v.purchase(transactionId, ctx) })
    }
    res.status(201).json(await v.buy({ ...body, callbackUrl: callbackUrlOf(req, env) }, ctx))
  })

  r.get('/orders/:transactionId', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json({ purchase: await v.purchase(req.params.transactionId, ctxOf(req), phoneOf(req.query.phone)) })
  })

  r.post('/orders/:transactionId/resend', async (req, res) => {
    res.json(await v.resend(req.params.transactionId, ctxOf(req), (req.body as { phone?: string }).phone))
  })

  r.get('/mine', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json(await v.mine(ctxOf(req)))
  })

  r.post('/lookup', async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json(await v.lookup(req.body, ctxOf(req)))
  })

  r.get('/admin/products', requireAdmin, async (_req, res) => {
    res.json({ products: await v.products.listAdmin() })
  })
  r.post('/admin/products', requireAdmin, async (req, res) => {
    res.status(201).json({ product: await v.products.create(valid(productBody, req.body), ctxOf(req)) })
  })
  r.put('/admin/products/:id', requireAdmin, async (req, res) => {
    res.json({ product: await v.products.update(req.params.id, valid(productBody, req.body), ctxOf(req)) })
  })
  r.get('/admin/products/:id/cards', requireAdmin, async (req, res) => {
    res.json(await v.stock(req.params.id, req.query.serial))
  })
  r.post('/admin/stock', requireAdmin, async (req, res) => {
    res.status(201).json(await v.upload(valid(uploadBody, req.body), ctxOf(req)))
  })
  r.get('/admin/sold', requireAdmin, async (req, res) => {
    res.setHeader('Cache-Control', 'no-store')
    res.json(await v.sold(valid(soldQuery, req.query)))
  })
  r.post('/admin/cards/:id/void', requireAdmin, async (req, res) => {
    const { id } = valid(cardIdParams, req.params)
    res.json(await v.voidCard(id, valid(voidBody, req.body), ctxOf(req)))
  })
  return r
}
