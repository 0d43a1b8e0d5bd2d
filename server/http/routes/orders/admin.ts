import { Router, type Response } from 'express'
import type { Writable } from 'node:stream'
import { writeWithBackpressure } from '../../../lib/csv.ts'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { downloadBody } from '../../middleware/compress.ts'
import { valid } from '../../validate.ts'
import { adminOrderIdParams } from './schema.ts'

export const exportFileName = (now = new Date()) => `orders_export_${now.toISOString().slice(0, 10)}.csv`

export function csvHeaders(res: Response, filename: string) {
  res.status(200)
  res.setHeader('Content-Type', 'text/csv; charset=utf-8')
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`)
  res.setHeader('Cache-Control', 'no-store')
  res.setHeader('X-Content-Type-Options', 'nosniff')
}

/**
 * Admin side of /api/orders. Mounted after the public router (which answers ?phoneNumber=) and
 * before the agents' own list: GET passes on to the next router unless the caller is an admin.
 */
export function ordersAdminRouter(services: Services) {
  const r = Router()
  const id = (params: unknown) => valid(adminOrderIdParams, params).id

  r.get('/', async (req, res, next) => {
    if (req.user?.role !== 'ADMIN') return next()
    res.json(await services.ordersAdmin.list(req.query as Record<string, unknown>, ctxOf(req)))
  })

  r.patch('/:id/delivered', requireAdmin, async (req, res) => {
    const order = await services.ordersAdmin.markDelivered(id(req.params), ctxOf(req))
    res.json({ message: 'Order marked as delivered', order })
  })

  r.post('/:id/retry-delivery', requireAdmin, async (req, res) => {
    const order = await services.ordersAdmin.retryDelivery(id(req.params), ctxOf(req))
    res.json({ message: 'Delivery queued again', order })
  })

  r.post('/export', requireAdmin, async (req, res) => {
    let body: Writable | undefined
    try {
      await services.ordersAdmin.exportPending(
        {
          start: () => {
            csvHeaders(res, exportFileName())
            body = downloadBody(req, res)
          },
          write: (chunk) => writeWithBackpressure(body!, chunk)
        },
        ctxOf(req)
      )
      // Only after COMMIT: a complete download means the orders are marked.
      body!.end()
    } catch (err) {
      // Headers already gone: the only honest signal left is a broken download (the export rolled back).
      if (res.headersSent || body) {
        req.log?.error({ err }, 'orders export failed midway; rolled back')
        body?.destroy()
        res.destroy()
        return
      }
      throw err
    }
  })
  return r
}
