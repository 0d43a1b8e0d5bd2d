import { Router } from 'express'
import { CsvStream } from '../../lib/csv.ts'
import { badRequest } from '../../lib/errors.ts'
import { AFA_CSV_COLUMNS } from '../../services/afa/admin.ts'
import type { Services } from '../../services/index.ts'
import { ctxOf } from '../ctx.ts'
import { requireAdmin } from '../middleware/auth.ts'
import { csvHeaders } from './orders-admin.ts'

/** Admin side of /api/afa (the public POST lives in afa.ts, mounted before this). */
export function afaAdminRouter(services: Services) {
  const r = Router()
  r.get('/', requireAdmin, async (req, res) => {
    res.json(await services.afaAdmin.list(req.query as Record<string, unknown>, ctxOf(req)))
  })

  r.patch('/:id/completed', requireAdmin, async (req, res) => {
    if (!/^\d{1,10}$/.test(String(req.params.id))) throw badRequest('Invalid registration id')
    const registration = await services.afaAdmin.markCompleted(Number(req.params.id), ctxOf(req))
    res.json({ message: 'Registration marked as completed', registration })
  })

  r.post('/export', requireAdmin, async (req, res) => {
    csvHeaders(res, 'afa_registrations.csv')
    const csv = new CsvStream(res, AFA_CSV_COLUMNS)
    try {
      await csv.begin()
      await services.afaAdmin.exportAll({ write: (rows) => csv.writeRows(rows) }, ctxOf(req))
      res.end()
    } catch (err) {
      req.log?.error({ err }, 'AFA export failed midway')
      res.destroy()
    }
  })
  return r
}
