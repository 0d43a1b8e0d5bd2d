import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { ctxOf } from '../ctx.ts'

/** POST /api/afa: records a registration whose payment the gateway confirmed. GET/PATCH/export are the admin's (afa-admin). */
export function afaRouter(services: Services) {
  const r = Router()
  r.post('/', async (req, res) => {
    res.status(201).json(await services.afa.register(req.body, ctxOf(req)))
  })
  return r
}
