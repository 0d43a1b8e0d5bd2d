import express, { type Express, type RequestHandler } from 'express'
import session from 'express-session'
import { trustProxySetting, type Env } from './env.ts'
import { identify } from './http/middleware/auth.ts'
import { formBody, jsonBody } from './http/middleware/body.ts'
import { compressResponses } from './http/middleware/compress.ts'
import { csrfProtection } from './http/middleware/csrf.ts'
import { catchUpEarly, currentCatchUp } from './http/catch-up.ts'
import { errorHandler } from './http/middleware/errors.ts'
import { metricsHandler, type Metrics } from './http/metrics.ts'
import { rejectUnstorableText, requireKnownBody } from './http/middleware/input.ts'
import { lazySession } from './http/middleware/lazy-session.ts'
import { paidCookie } from './http/paid-cookie.ts'
import { createSessionStore } from './http/middleware/session-store.ts'
import { requestLogger } from './http/middleware/request-log.ts'
import { securityHeaders } from './http/middleware/security-headers.ts'
import { anonymousReads } from './http/routes/anonymous-reads.ts'
import { apiRouter } from './http/routes/index.ts'
import { signedCallbacksRouter } from './http/routes/payments/webhooks.ts'
import { whatsappCallbacksRouter } from './http/routes/whatsapp/callbacks.ts'
import { siteMetaRouter } from './http/site-meta.ts'
import { preparedFor } from '../models/prepared.ts'
import { RETRY_AFTER_SECONDS } from './lib/db-unavailable.ts'
import type { Logger } from './lib/logger.ts'
import type { Services } from './services/index.ts'

export const SESSION_COOKIE = 'datahub.sid'
export const IDLE_TIMEOUT_MS = 30 * 60 * 1000

export interface AppOptions {
  env: Env
  log: Logger
  services: Services
  sessionSecret: string
  /** Serves pages (Vike) and static assets; mounted after the API. */
  pages?: { assets?: RequestHandler[]; render: RequestHandler }
  /** Extra routers mounted before the pages (the USSD simulator, a shop's preview card). */
  extra?: (app: Express) => void
  /** Callbacks from machines outside that prove themselves (the telco's USSD hop), mounted before the browser's middleware (ADR 0089). */
  callbacks?: (app: Express) => void
  /** Prometheus registry for /metrics; absent, there is no /metrics. */
  metrics?: Metrics
  /** Set while the instance drains before stopping: /readyz answers 503 and connections are not kept alive. */
  lifecycle?: { draining: boolean }
}

/** The Express app, without listening: boot and tests both build it here. */
export function createApp(opts: AppOptions): Express {
  const { env, log, services } = opts
  const app = express()
  const prod = env.NODE_ENV === 'production'
  app.disable('x-powered-by')
  // Behind a balancer the client address, rate limits and secure cookies come from X-Forwarded-*.
  app.set('trust proxy', trustProxySetting(env.TRUST_PROXY))
  app.use(requestLogger(app, log))
  if (opts.metrics) app.use(opts.metrics.middleware)
  app.use((_req, res, next) => {
    // A draining instance asks each client to reconnect (through the balancer, to another instance).
    if (opts.lifecycle?.draining) res.setHeader('Connection', 'close')
    next()
  })

  // Fixed headers computed once; the page handler adds its per-request nonce CSP.
  app.use(securityHeaders(env).middleware)
  // The gateways' signed callbacks need none of the browser's middleware below (ADR 0089): answered here.
  app.use('/api/webhooks', signedCallbacksRouter(services))
  app.use('/api/whatsapp', whatsappCallbacksRouter(services))
  opts.callbacks?.(app)
  app.use(anonymousReads(services, SESSION_COOKIE))

  app.use(compressResponses())

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' })
  })
  app.get('/readyz', async (_req, res) => {
    const connections = services.connections.snapshot()
    if (opts.lifecycle?.draining) return void res.status(503).json({ status: 'draining', connections })
    try {
      await services.deps.sequelize.query('SELECT 1')
    } catch {
      res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS))
      return void res.status(503).json({ status: 'unavailable', error: 'Database unreachable', connections })
    }
    // The database answers, but a listener or the queue may still be reconnecting: ready, with the states to see.
    res.json({ status: 'ready', connections })
  })

  if (opts.metrics) app.get('/metrics', metricsHandler(opts.metrics, env))

  app.use(siteMetaRouter(services))
  for (const h of opts.pages?.assets ?? []) app.use(h)
  app.use(catchUpEarly(services, SESSION_COOKIE))

  // The payments a browser started live in a signed cookie of their own, signed with the session's secret and
  // secure where the session's cookie is: a visitor's order creates no session (ADR 0062).
  app.locals.paidCookie = paidCookie(opts.sessionSecret, IDLE_TIMEOUT_MS, (req) => prod && req.secure)
  const sessionStatement = preparedFor(services.deps.sequelize)
  app.use(
    lazySession(
      session({
        name: SESSION_COOKIE,
        secret: opts.sessionSecret,
        resave: false,
        saveUninitialized: false,
        rolling: true,
        // The session table lives in our own database and is reached through the app's pool.
        // A read moves the session's expiry at most once a minute (ADR 0043); the row is kept between loads (ADR 0048).
        store: createSessionStore(
          {
            // Named statements (ADR 0024): Sequelize's query path with PostgreSQL's parse and plan of each save
            // was most of a session save's round trip.
            pgPromise: { any: (text: string, params: unknown[]) => sessionStatement(text, params) },
            tableName: 'session',
            createTableIfMissing: false,
            pruneSessionInterval: env.NODE_ENV === 'test' ? false : 600,
            ttl: IDLE_TIMEOUT_MS / 1000
          },
          undefined,
          (sid, load) => services.signedIn.session(sid, currentCatchUp(), load)
        ),
        cookie: { httpOnly: true, sameSite: 'lax', secure: prod ? 'auto' : false, maxAge: IDLE_TIMEOUT_MS }
      }),
      SESSION_COOKIE
    )
  )

  app.use(jsonBody())
  app.use(formBody())
  app.use(rejectUnstorableText)
  app.use('/api', requireKnownBody)
  app.use(identify(services))
  app.use('/api', csrfProtection)
  opts.extra?.(app)
  app.use('/api', apiRouter(services))
  if (opts.pages) app.use(opts.pages.render)
  app.use(errorHandler)
  return app
}
