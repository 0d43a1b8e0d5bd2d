import fs from 'node:fs'
import type { Server } from 'node:http'
import type { Express } from 'express'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { openDatabase, type Database } from '../models/db.ts'
import { migrate } from '../models/migrate.ts'
import { openPoolConnections } from '../models/warm-pool.ts'
import { voucherKeyRefusal } from './services/vouchers/index.ts'
import { seedDefaults } from './services/seed/index.ts'
import { createApp } from './app.ts'
import { createMetrics } from './http/metrics.ts'
import { loadEnv, type Env } from './env.ts'
import { ROOT, staticAssets, vikeHandler } from './http/pages.ts'
import { randomToken } from './lib/crypto.ts'
import { createLogger, type Logger } from './lib/logger.ts'
import { createServices, type Services } from './services/index.ts'
import { simulatorsInUse } from './services/simulators/index.ts'
import { watchAppPool } from './services/ops/pool-watch.ts'
import { listenForPageChanges } from './services/page-changes/index.ts'

export interface Running {
  url: string
  port: number
  services: Services
  db: Database
  /** Settles once the pool's connections, opened after listening, are open (how many opened). */
  poolOpened: Promise<number>
  stop(): Promise<void>
}

function sessionSecret(env: Env): string {
  if (env.SESSION_SECRET) return env.SESSION_SECRET
  const file = path.join(env.DATA_DIR, 'session-secret')
  if (!fs.existsSync(file)) {
    fs.mkdirSync(env.DATA_DIR, { recursive: true })
    fs.writeFileSync(file, randomToken(48), { mode: 0o600 })
  }
  return fs.readFileSync(file, 'utf8').trim()
}

async function pageLayer(env: Env, services: Services, dev: boolean) {
  if (dev) {
    const { createServer } = await import('vite')
    const vite = await createServer({ root: ROOT, server: { middlewareMode: true }, appType: 'custom' })
    return { assets: [vite.middlewares], render: vikeHandler(services), close: () => vite.close() }
  }
  // This tree's own build: Vike otherwise follows the build path the last `vite build` wrote into node_modules,
  // which is another tree's wherever several checkouts share one node_modules.
  await import(pathToFileURL(path.join(ROOT, 'dist/server/entry.mjs')).href)
  return { assets: staticAssets(), render: vikeHandler(services), close: async () => {} }
}

/** env -> database -> migrate -> seed -> pages -> listen; returns a handle that stops it all gracefully. */
/**
 * What the process entry (`main.ts`) composes into the server: the channels outside /api (USSD,
 * webhooks) and the job queue's tasks. Handed in, so the server never imports the channels above it.
 */
export interface Channels {
  mount(app: Express, services: Services): void
  /** The channels' callbacks from machines outside that prove themselves, mounted before the browser's middleware. */
  mountCallbacks(app: Express, services: Services): void
  registerTasks(services: Services): void
}

export interface BootOptions {
  channels: Channels
  env?: Env
  log?: Logger
  dev?: boolean
  db?: Database
  /** Milliseconds now, for what kept page data ages by (a test moves it); Date.now when not given. */
  now?: () => number
}

export async function boot(opts: BootOptions): Promise<Running> {
  const env = opts.env ?? loadEnv()
  const log = opts.log ?? createLogger(env.LOG_LEVEL)
  const db = opts.db ?? (await openDatabase(env, log))
  await migrate(db.sequelize, log)
  // Sealed checker PINs with no key to open them: refuse to start rather than sell cards nobody can read.
  const keyRefusal = await voucherKeyRefusal(db.sequelize, env)
  if (keyRefusal) throw new Error(`Invalid environment:\n  - ${keyRefusal}`)
  const secret = sessionSecret(env)
  // Services that key an HMAC (reset codes) use the same secret every instance shares.
  const services = createServices({ sequelize: db.sequelize, models: db.models, env: { ...env, SESSION_SECRET: secret }, log, url: db.url, now: opts.now })
  await services.queue.migrate()
  await seedDefaults(db.models, services, { adminEmail: env.ADMIN_EMAIL, adminPassword: env.ADMIN_PASSWORD, log, sampleBusiness: env.NODE_ENV !== 'test' })
  const stopSettingsListener = await services.settings.listen()
  const stopChangesListener = await listenForPageChanges({
    sequelize: db.sequelize,
    connections: services.connections,
    packages: services.packages,
    shops: services.shops,
    vouchers: services.vouchers,
    pageData: services.pageData,
    signedIn: services.signedIn
  })
  const stopPoolWatch = watchAppPool(db.sequelize, services.connections)
  const pages = await pageLayer(env, services, opts.dev ?? false)
  const lifecycle = { draining: false }
  const metrics = createMetrics(services.opsMetrics, services.connections)
  const app = createApp({
    env,
    log,
    services,
    sessionSecret: secret,
    pages,
    metrics,
    lifecycle,
    extra: (a) => opts.channels.mount(a, services),
    callbacks: (a) => opts.channels.mountCallbacks(a, services)
  })
  opts.channels.registerTasks(services)
  if (env.JOBS_ENABLED) await services.queue.start()

  const server: Server = await new Promise((resolve, reject) => {
    // Express 5 hands a listen error to this callback as well.
    const s = app.listen(env.PORT, env.HOST, (err?: NodeJS.ErrnoException) => {
      if (!err) return resolve(s)
      reject(err.code === 'EADDRINUSE' ? new Error(`Port ${env.PORT} is taken. Set PORT to a free port.`) : err)
    })
  })
  const port = (server.address() as { port: number }).port
  const url = `http://localhost:${port}`
  const simulators = simulatorsInUse(env)
  if (simulators.length) log.info({ simulators }, `simulators in use: ${simulators.join('; ')}`)
  log.info({ url }, 'Data Hub is listening')
  // After listening, not before: opening them must not delay the start; requests meanwhile share the same pool.
  const poolOpened = openPoolConnections(db.sequelize, log)

  // Stop in order: report not ready (the balancer stops sending), stop accepting, answer what is in
  // flight (a request whose body is still arriving included), then jobs, pages and the pool.
  let stopping: Promise<void> | undefined
  const stop = () =>
    (stopping ??= (async () => {
      log.info({ drainMs: env.SHUTDOWN_DRAIN_MS }, 'shutting down')
      lifecycle.draining = true
      if (env.SHUTDOWN_DRAIN_MS > 0) await new Promise((r) => setTimeout(r, env.SHUTDOWN_DRAIN_MS))
      await new Promise<void>((resolve) => {
        const cut = setTimeout(() => {
          log.warn('requests still running at the shutdown timeout; closing their connections')
          server.closeAllConnections()
        }, env.SHUTDOWN_TIMEOUT_MS)
        server.close(() => {
          clearTimeout(cut)
          resolve()
        })
        // Idle keep-alive sockets would hold close() open; in-flight requests still finish.
        server.closeIdleConnections()
      })
      await poolOpened
      await services.queue.stop()
      await stopSettingsListener()
      await stopChangesListener()
      stopPoolWatch()
      await pages.close()
      if (!opts.db) await db.close()
      else await db.sequelize.close().catch(() => {})
      log.info('stopped')
    })())
  return { url, port, services, db, poolOpened, stop }
}
