import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express'
import { DB_UNAVAILABLE_MESSAGE, isDbUnavailable, RETRY_AFTER_SECONDS } from '../../lib/db-unavailable.ts'
import { AppError } from '../../lib/errors.ts'
import { rightBackHtml } from '../right-back.ts'

export const apiNotFound: RequestHandler = (_req, res) => {
  res.status(404).json({ error: 'Not found' })
}

/** One place answers errors: `{ error }` with the right status; internals never leave the server. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  if (res.headersSent) {
    req.log?.error({ err }, 'error after response started')
    res.end()
    return
  }
  if (err instanceof AppError) {
    if (err.status === 429 && typeof err.extra?.retryAfter === 'number') res.setHeader('Retry-After', String(err.extra.retryAfter))
    res.status(err.status).json({ error: err.message, message: err.message, ...(err.extra ?? {}) })
    return
  }
  // body-parser and friends mark client mistakes (bad JSON, too large) with a 4xx status.
  const status = Number(err?.status ?? err?.statusCode)
  if (status >= 400 && status < 500) {
    const message = err.type === 'entity.parse.failed' ? 'Malformed JSON body' : err.type === 'entity.too.large' ? 'Request body too large' : 'Bad request'
    res.status(status).json({ error: message })
    return
  }
  if (isDbUnavailable(err)) {
    answerDbUnavailable(req, res)
    return
  }
  req.log?.error({ err }, 'unhandled error')
  res.status(500).json({ error: 'Something went wrong. Please try again.' })
}

/** The database is down for a moment: ask the client to come back, a browser with a page it can read. */
export function answerDbUnavailable(req: Request, res: Response) {
  res.status(503).setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
  res.setHeader('Cache-Control', 'no-store')
  const page = (req.method === 'GET' || req.method === 'HEAD') && !req.path.startsWith('/api/') && req.accepts(['json', 'html']) === 'html'
  if (page) res.type('html').send(rightBackHtml)
  else res.json({ error: DB_UNAVAILABLE_MESSAGE })
}
