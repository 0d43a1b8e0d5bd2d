import type { RequestHandler } from 'express'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Runs the session middleware only when there can be a session: the request carries the session
 * cookie, or it is a write to the sign-in routes (a sign-in creates the session on a POST; a sign-out
 * ends one). Anything else without the cookie is a visitor's or an API key's: a visitor's GET, a USSD
 * hop, a gateway callback, a visitor's order (the payments it started go to their own signed cookie,
 * `paid-cookie.ts`) or the reseller API (answered on its key alone). Each would have made a session id,
 * a cookie and a hash only to drop them. Handlers read `req.session?.` for that reason.
 */
export function lazySession(session: RequestHandler, cookieName: string): RequestHandler {
  const mark = `${cookieName}=`
  return (req, res, next) => {
    // Express matches routes without regard to case: so does this, or /API/AUTH/LOGIN would find no session.
    if (req.headers.cookie?.includes(mark) || (!SAFE.has(req.method) && req.url.toLowerCase().startsWith('/api/auth/'))) return session(req, res, next)
    next()
  }
}
