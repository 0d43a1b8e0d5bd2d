import connectPgSimple from 'connect-pg-simple'
import express, { type Express, type RequestHandler } from 'express'
import session from 'express-session'
import helmet from 'helmet'
import crypto from 'node:crypto'
import { trustProxySetting, type Env } from './env.ts'
import { identify } from './http/middleware/auth.ts'
import { compressResponses } from './http/middleware/compress.ts'
import { csrfProtection } from './http/middleware/csrf.ts'
import { errorHandler } from './http/middleware/errors.ts'
import { metricsHandler, type Metrics } from './http/metrics.ts'
import { rejectNul, requireKnownBody } from './http/middleware/input.ts'
import { apiRouter } from './http/routes/index.ts'
import { siteMetaRouter } from './http/site-meta.ts'
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
  /** Extra routers mounted before the pages (webhooks, USSD, simulator). */
  extra?: (app: Express) => void
  /** Prometheus registry for /metrics; absent, there is no /metrics. */
  metrics?: Metrics
  /** Set while the instance drains before stopping: /readyz answers 503 and connections are not kept alive. */
  lifecycle?: { draining: boolean }
}

function requestLogger(log: Logger): RequestHandler {
  return (req, res, next) => {
    const id = (req.headers['x-request-id'] as string | undefined)?.slice(0, 64) || crypto.randomUUID()
    req.id = id
    req.log = log.child({ reqId: id })
    res.setHeader('x-request-id', id)
    const start = process.hrtime.bigint()
    res.on('finish', () => {
      if (req.path.startsWith('/assets/')) return
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      // The path only: query strings can carry secrets (a gateway's ?secret=, payment references).
      req.log.debug({ method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request')
    })
    next()
  }
}

/** The Express app, without listening: boot and tests both build it here. */
export function createApp(opts: AppOptions): Express {
  const { env, log, services } = opts
  const app = express()
  const prod = env.NODE_ENV === 'production'
  app.disable('x-powered-by')
  // Behind a balancer the client address, rate limits and secure cookies come from X-Forwarded-*.
  app.set('trust proxy', trustProxySetting(env.TRUST_PROXY))
  app.use(requestLogger(log))
  if (opts.metrics) app.use(opts.metrics.middleware)
  app.use((_req, res, next) => {
    // A draining instance asks each client to reconnect (through the balancer, to another instance).
    if (opts.lifecycle?.draining) res.setHeader('Connection', 'close')
    next()
  })

  app.use((_req, res, next) => {
    res.locals.cspNonce = crypto.randomBytes(16).toString('base64url')
    next()
  })
  app.use(
    helmet({
      contentSecurityPolicy: env.NODE_ENV === 'development'
        ? false // Vite's dev client injects inline scripts of its own.
        : {
            directives: {
              'script-src': ["'self'", (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`],
              'img-src': ["'self'", 'data:', 'https:'],
              'style-src': ["'self'", "'unsafe-inline'"],
              'connect-src': ["'self'"],
              'form-action': ["'self'", 'https:'],
              'upgrade-insecure-requests': prod && env.PUBLIC_URL?.startsWith('https') ? [] : null,
            },
          },
      // Payment pages redirect to the gateway's checkout; keep the default same-origin opener policy.
      crossOriginEmbedderPolicy: false,
      hsts: prod && !!env.PUBLIC_URL?.startsWith('https'),
    }),
  )

  app.use(compressResponses())

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' })
  })
  app.get('/readyz', async (_req, res) => {
    if (opts.lifecycle?.draining) return void res.status(503).json({ status: 'draining' })
    try {
      await services.deps.sequelize.query('SELECT 1')
      res.json({ status: 'ready' })
    } catch {
      res.status(503).json({ status: 'unavailable', error: 'Database unreachable' })
    }
  })

  if (opts.metrics) app.get('/metrics', metricsHandler(opts.metrics, env))

  app.use(siteMetaRouter(services))
  for (const h of opts.pages?.assets ?? []) app.use(h)

  const PgStore = connectPgSimple(session)
  const sequelize = services.deps.sequelize
  app.use(
    session({
      name: SESSION_COOKIE,
      secret: opts.sessionSecret,
      resave: false,
      saveUninitialized: false,
      rolling: true,
      // The session table lives in our own database and is reached through the app's pool.
      store: new PgStore({
        pgPromise: { any: async (text: string, params: unknown[]) => (await sequelize.query(text, { bind: params }))[0] },
        tableName: 'session',
        createTableIfMissing: false,
        pruneSessionInterval: env.NODE_ENV === 'test' ? false : 600,
        ttl: IDLE_TIMEOUT_MS / 1000,
      }),
      cookie: { httpOnly: true, sameSite: 'lax', secure: prod ? 'auto' : false, maxAge: IDLE_TIMEOUT_MS },
    }),
  )

  // Raw bytes are kept for webhook signatures (HMAC over the exact body).
  app.use(
    express.json({
      limit: '100kb',
      verify: (req, _res, buf) => {
        ;(req as express.Request).rawBody = buf
      },
    }),
  )
  app.use(express.urlencoded({ extended: false, limit: '20kb' }))
  app.use(rejectNul)
  app.use('/api', requireKnownBody)
  app.use(identify(services))
  app.use('/api', csrfProtection)
  opts.extra?.(app)
  app.use('/api', apiRouter(services))
  if (opts.pages) app.use(opts.pages.render)
  app.use(errorHandler)
  return app
}
