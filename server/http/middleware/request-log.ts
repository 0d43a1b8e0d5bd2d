import type { Express, RequestHandler } from 'express'
import crypto from 'node:crypto'
import type { Logger } from '../../lib/logger.ts'

const BASE = Symbol('baseLog')
const CHILD = Symbol('childLog')

/**
 * Stands in for `make()`'s logger and makes it on its first use. Every API request hands `req.log` to its
 * services (`ctxOf`), and most of them never log: pino's child (its bindings serialised through the redaction)
 * was about 0.1 ms of an order's CPU.
 */
function lazyLogger(make: () => Logger): Logger {
  let real: Logger | undefined
  const target = () => (real ??= make())
  return new Proxy({} as Logger, {
    get(_t, key) {
      const l = target()
      const v = Reflect.get(l, key, l)
      return typeof v === 'function' ? v.bind(l) : v
    },
    set: (_t, key, v) => Reflect.set(target(), key, v),
    has: (_t, key) => key in target()
  })
}

/**
 * A request id on every request and a logger that carries it. The child logger is made on first
 * use (most requests never log), through a getter defined once on the app's request prototype, and
 * the per-request "request" line is only wired when debug is on: on a JSON request these were a
 * measurable share of the cost.
 */
export function requestLogger(app: Express, log: Logger): RequestHandler {
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: any): Logger {
      return (this[CHILD] ??= lazyLogger(() => (this[BASE] ?? log).child({ reqId: this.id })))
    },
    set(this: any, v: Logger) {
      this[CHILD] = v
    }
  })
  return (req, res, next) => {
    const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || crypto.randomUUID()
    req.id = id
    ;(req as any)[BASE] = log
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
