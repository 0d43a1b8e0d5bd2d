import { Router } from 'express'
import { CsvStream } from '../../../lib/csv.ts'
import { AFA_CSV_COLUMNS } from '../../../services/afa/admin.ts'
import type { Services } from '../../../services/index.ts'
import { ctxOf } from '../../ctx.ts'
import { requireAdmin } from '../../middleware/auth.ts'
import { valid } from '../../validate.ts'
import { csvHeaders } from '../orders/admin.ts'
import { listQuery, registerBody, registrationIdParams } from './schema.ts'

// A JSON array is no form: it reads as an empty one.
const objectOf = (body: unknown) => (body && typeof body === 'object' && !Array.isArray(body) ? body : {})

/** POST /api/afa: records a registration whose payment the gateway confirmed. GET/PATCH/export are the admin's (afaAdminRouter). */
export function afaRouter(services: Services) {
  const r = Router()
  r.post('/', async (req, res) => {
    await services.afa.assertOpen()
    res.status(201).json(await services.afa.register(valid(registerBody, objectOf(req.body)), ctxOf(req)))
  })
  return r
}

/** Admin side of /api/afa (the public POST is afaRouter's, mounted before this). */
export function afaAdminRouter(services: Services) {
  const r = Router()
  r.get('/', requireAdmin, async (req, res) => {
    res.json(await services.afaAdmin.list(valid(listQuery, req.query), ctxOf(req)))
  })

  r.patch('/:id/completed', requireAdmin, async (req, res) => {
    const registration = await services.afaAdmin.markCompleted(valid(registrationIdParams, req.params).id, ctxOf(req))
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
