import type { RequestHandler } from 'express'
import { AppError, badRequest } from '../../lib/errors.ts'
import { parsedFromPlainUtf8 } from './body.ts'

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])
export const UNSUPPORTED_BODY = 'Unsupported Content-Type: send the request body as JSON (Content-Type: application/json).'
export const NUL_IN_INPUT = 'Text must not contain NUL (\\u0000) characters.'

/**
 * The API reads JSON (and plain forms). Another body type used to reach the handlers as "no body"
 * and fail inside them with a 500: it is refused here with 415, and a request without any
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

export const LONE_SURROGATE_IN_INPUT = 'Text must be valid Unicode: it contains a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF escape).'

/** Why a piece of text cannot be stored, or null when it can. */
function unstorable(text: string): string | null {
  if (text.includes('\u0000')) return NUL_IN_INPUT
  if (!text.isWellFormed()) return LONE_SURROGATE_IN_INPUT
  return null
}

/** The first reason any key or string in a parsed body or query cannot be stored, or null. */
function findUnstorable(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return unstorable(value)
  if (depth > 32 || value === null || typeof value !== 'object') return null
  // Indexed loops over the keys, each key before its value: an array of [key, value] pairs per object cost
  // tens of microseconds on a gateway's kilobyte of JSON.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const why = findUnstorable(value[i], depth + 1)
      if (why) return why
    }
    return null
  }
  const keys = Object.keys(value)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    const why = unstorable(key) ?? findUnstorable((value as Record<string, unknown>)[key], depth + 1)
    if (why) return why
  }
  return null
}

/**
 * PostgreSQL cannot store some text JavaScript can hold: NUL in any text column, and a lone UTF-16
 * surrogate (JSON's "\ud800" escape parses into one, and it has no UTF-8 form) in jsonb such as an
 * audit entry's details. Either made the query fail with a 500 deep inside whichever service got
 * the field. One check for every channel (API, reseller API, USSD, webhooks, pages) refuses such
 * text in the path, the query or the body with 400 before anything is written.
 */
export const rejectUnstorableText: RequestHandler = (req, _res, next) => {
  let path = req.path
  try {
    path = decodeURIComponent(req.path)
  } catch {
    return next(badRequest('Malformed URL'))
  }
  const why = unstorable(path) ?? findUnstorable(req.query) ?? (parsedFromPlainUtf8(req) ? null : findUnstorable(req.body))
  next(why ? badRequest(why) : undefined)
}
