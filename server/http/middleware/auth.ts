import type { RequestHandler } from 'express'
import { forbidden, unauthorized } from '../../lib/errors.ts'
import type { Role } from '../../services/context.ts'
import type { Services } from '../../services/index.ts'
import { KEY_PREFIX } from '../../services/reseller-api/index.ts'
import { catchUpOf } from '../catch-up.ts'

/** Who is asking: the session cookie (browsers) or a Bearer access token (other clients). */
export function identify(services: Services): RequestHandler {
  return async (req, _res, next) => {
    try {
      req.user = null
      const header = req.headers.authorization
      if (header?.startsWith('Bearer ')) {
        const token = header.slice(7).trim()
        // A reseller API key (its own guard answers for it on /api/v1) is never an access token: not looked up as one.
        const found = token.startsWith(KEY_PREFIX) ? null : await services.auth.fromAccessToken(token)
        if (found) {
          req.user = found.actor
          req.tokenFamily = found.familyId
          req.authVia = 'bearer'
        }
      } else if (req.session?.userId) {
        const actor = await services.signedIn.actor(req.session.userId, catchUpOf(req))
        if (actor && (req.session.epoch ?? 0) >= (actor.sessionEpoch ?? 0)) {
          req.user = actor
          req.authVia = 'session'
        } else {
          // Gone, or signed in under an older epoch: the user's sessions were ended since (ADR 0018).
          // The session object stays (a sign-in on this request regenerates it), signed out.
          delete req.session.userId
          delete req.session.epoch
          delete req.session.csrfToken
        }
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
