import type { RequestHandler } from 'express'
import { AppError, badRequest } from '../../lib/errors.ts'

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
export const UNSUPPORTED_BODY = 'Unsupported Content-Type: send the request body as JSON (Content-Type: application/json).'
export const NUL_IN_INPUT = 'Text must not contain NUL (\\u0000) characters.'

/**
 * The API reads JSON (and plain forms). Another body type used to reach the handlers as "no body"
 * and fail inside them with a 500 (issue 15): it is refused here with 415, and a request without any
 * body gets an empty object, so handlers never read fields of undefined.
 */
export const requireKnownBody: RequestHandler = (req, _res, next) => {
  if (!BODY_METHODS.has(req.method)) return next()
  // An empty body (Content-Length: 0, as fetch sends for a bare POST) has no type to check.
  const empty = req.headers['content-length'] === '0' || (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined)
  if (!empty && req.is(['application/json', 'application/*+json', 'application/x-www-form-urlencoded']) === false) {
    return next(new AppError(415, UNSUPPORTED_BODY))
  }
  if (req.body === undefined || req.body === null) req.body = {}
  next()
}

function hasNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000')
  if (depth > 32 || value === null || typeof value !== 'object') return false
  if (Array.isArray(value)) return value.some((v) => hasNul(v, depth + 1))
  return Object.entries(value as Record<string, unknown>).some(([k, v]) => k.includes('\u0000') || hasNul(v, depth + 1))
}

/**
 * PostgreSQL's text cannot hold NUL, so a \u0000 anywhere in a field made the query fail with a 500
 * (issue 15). Any text with one, in the path, the query or the body, is refused up front with 400.
 */
export const rejectNul: RequestHandler = (req, _res, next) => {
  let path = req.path
  try {
    path = decodeURIComponent(req.path)
  } catch {
    return next(badRequest('Malformed URL'))
  }
  if (path.includes('\u0000') || hasNul(req.query) || hasNul(req.body)) return next(badRequest(NUL_IN_INPUT))
  next()
}
