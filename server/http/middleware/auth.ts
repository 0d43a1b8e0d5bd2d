import type { RequestHandler } from 'express'
import { forbidden, unauthorized } from '../../lib/errors.ts'
import type { Role } from '../../services/context.ts'
import type { Services } from '../../services/index.ts'

/** Who is asking: the session cookie (browsers) or a Bearer access token (other clients). */
export function identify(services: Services): RequestHandler {
  return async (req, _res, next) => {
    try {
      req.user = null
      const header = req.headers.authorization
      if (header?.startsWith('Bearer ')) {
        req.user = await services.auth.actorFromAccessToken(header.slice(7).trim())
        if (req.user) req.authVia = 'bearer'
      } else if (req.session?.userId) {
        req.user = await services.auth.loadActor(req.session.userId)
        if (req.user) req.authVia = 'session'
        else delete req.session.userId
      }
      next()
    } catch (err) {
      next(err)
    }
  }
}

export const requireUser: RequestHandler = (req, _res, next) => next(req.user ? undefined : unauthorized())

export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) return next(unauthorized())
    next(roles.includes(req.user.role) ? undefined : forbidden('You do not have access to this resource'))
  }
}

export const requireAdmin = requireRole('ADMIN')
