import { Router } from 'express'
import type { Services } from '../../services/index.ts'
import { apiNotFound } from '../middleware/errors.ts'
import { authRouter } from './auth.ts'
import { settingsRouter } from './settings.ts'

/** Every /api resource, one router each. Add a line here for a new resource. */
export function apiRouter(services: Services) {
  const api = Router()
  api.use('/auth', authRouter(services))
  api.use('/settings', settingsRouter(services))
  api.use(apiNotFound)
  return api
}
