import type { RequestHandler } from 'express'
import crypto from 'node:crypto'
import type { Logger } from '../../lib/logger.ts'

/**
 * A request id on every request and a logger that carries it. The child logger is made on first
 * use (most requests never log), and the per-request "request" line is only wired when debug is on:
 * on a JSON request both were a measurable share of the cost (issue 16).
 */
export function requestLogger(log: Logger): RequestHandler {
  return (req, res, next) => {
    const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || crypto.randomUUID()
    req.id = id
    let child: Logger | undefined
    Object.defineProperty(req, 'log', {
      configurable: true,
      enumerable: true,
      get: () => (child ??= log.child({ reqId: id })),
      set: (v: Logger) => {
        child = v
      },
    })
    res.setHeader('x-request-id', id)
    if (log.isLevelEnabled('debug')) {
      const start = process.hrtime.bigint()
      res.on('finish', () => {
        if (req.path.startsWith('/assets/')) return
        const ms = Number(process.hrtime.bigint() - start) / 1e6
        // The path only: query strings can carry secrets (a gateway's ?secret=, payment references).
        req.log.debug({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request')
      })
    }
    next()
  }
}
