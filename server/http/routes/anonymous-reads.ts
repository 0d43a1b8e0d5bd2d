import type { RequestHandler } from 'express'
import type { Services } from '../../services/index.ts'
import type { PackageRow } from '../../services/packages/index.ts'
import { sendCachedJson } from '../json-cache.ts'

/**
 * The two hottest reads, answered for a caller without credentials before the rest of the stack.
 * Without a session cookie and without a bearer token the caller is a visitor, so the
 * session, identity, body parsers, CSRF check and the API router's walk have nothing to do: the
 * answer is the cached public JSON, exactly what the routers in settings.ts and packages.ts answer a
 * visitor. Anything else (a query string, a signed-in caller, HEAD) goes the usual way.
 */
export function anonymousReads(services: Services, sessionCookie: string): RequestHandler {
  const mark = `${sessionCookie}=`
  const present = (rows: PackageRow[]) => rows.map(services.packages.present)
  return (req, res, next) => {
    if (req.method !== 'GET' || req.headers.authorization !== undefined || req.headers.cookie?.includes(mark)) return next()
    if (req.url !== '/api/settings' && req.url !== '/api/packages') return next()
    res.locals.route = req.url // the metrics' route label (no router matched it)
    if (req.url === '/api/settings') services.settings.getPublic().then((s) => sendCachedJson(res, s), next)
    else services.packages.listActive().then((rows) => sendCachedJson(res, rows, present), next)
  }
}
