import type { RequestHandler } from 'express'

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Runs the session middleware only when there can be a session: the request carries the session
 * cookie, or it is an API call that may change state (a sign-in creates the session on a POST).
 * A visitor's GET, a USSD hop or a gateway callback outside /api has no session to load and never
 * gets one, so it skips express-session's cookie parsing, signing check and new-session object.
 * The reseller API (`/api/v1/`) is answered on its key alone and never keeps a session, so its writes
 * without the cookie skip it too: each made a session id, a cookie and a hash only to drop them.
 * Handlers read `req.session?.` for that reason.
 */
export function lazySession(session: RequestHandler, cookieName: string): RequestHandler {
  const mark = `${cookieName}=`
  return (req, res, next) => {
    if (req.headers.cookie?.includes(mark) || (!SAFE.has(req.method) && req.url.startsWith('/api/') && !req.url.startsWith('/api/v1/')))
      return session(req, res, next)
    next()
  }
}
