import type { RequestHandler } from 'express'
import { randomToken, safeEqual } from '../../lib/crypto.ts'
import { forbidden } from '../../lib/errors.ts'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

export function ensureCsrfToken(session: { csrfToken?: string }): string {
  return (session.csrfToken ??= randomToken(24))
}

/**
 * Browsers carry the session cookie on their own, so a state change made with it must also carry
 * the page's token (header x-csrf-token). Cross-site requests are refused outright. Bearer-token
 * clients and server-to-server callbacks carry no ambient credentials and are not affected.
 */
export const csrfProtection: RequestHandler = (req, _res, next) => {
  if (SAFE.has(req.method)) return next()
  if (req.headers['sec-fetch-site'] === 'cross-site') return next(forbidden('Cross-site request refused'))
  const origin = req.headers.origin
  if (origin && origin !== 'null') {
    try {
      if (new URL(origin).host !== req.headers.host) return next(forbidden('Cross-site request refused'))
    } catch {
      return next(forbidden('Cross-site request refused'))
    }
  }
  if (req.authVia === 'session') {
    const sent = req.headers['x-csrf-token']
    const expected = req.session?.csrfToken
    if (typeof sent !== 'string' || !expected || !safeEqual(sent, expected)) return next(forbidden('Invalid or missing CSRF token. Please reload the page.'))
  }
  next()
}
