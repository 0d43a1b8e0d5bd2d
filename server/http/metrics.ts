import type { Request, RequestHandler } from 'express'
import client from 'prom-client'
import crypto from 'node:crypto'
import type { Env } from '../env.ts'
import type { ConnectionStates } from '../lib/connection-states.ts'
import type { OpsMetrics } from '../services/ops/metrics.ts'

/**
 * One registry per app. Extend it with `metrics.registry` (new Counter/Gauge with
 * `registers: [metrics.registry]`), or with `metrics.onScrape(fn)` for figures read at scrape time.
 */
export function createMetrics(ops: OpsMetrics, connections: ConnectionStates) {
  const registry = new client.Registry()
  client.collectDefaultMetrics({ register: registry })
  const requests = new client.Counter({
    name: 'datahub_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry]
  })
  const latency = new client.Histogram({
    name: 'datahub_http_request_duration_seconds',
    help: 'HTTP request latency, by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry]
  })
  const scrapers: (() => Promise<void>)[] = []
  const onScrape = (fn: () => Promise<void>) => scrapers.push(fn)

  const payments = new client.Gauge({ name: 'datahub_payments', help: 'Payments by status', labelNames: ['status'] as const, registers: [registry] })
  onScrape(async () => {
    payments.reset()
    for (const r of await ops.paymentsByStatus()) payments.set({ status: r.status }, r.count)
  })
  const queue = new client.Gauge({
    name: 'datahub_queue_jobs',
    help: 'Durable job queue: waiting, running (held by a worker) and failed (gave up) jobs',
    labelNames: ['state'] as const,
    registers: [registry]
  })
  onScrape(async () => {
    const q = await ops.queue()
    queue.reset()
    if (q) {
      queue.set({ state: 'waiting' }, q.waiting)
      queue.set({ state: 'running' }, q.running)
      queue.set({ state: 'failed' }, q.failed)
    }
  })
  const connected = new client.Gauge({
    name: 'datahub_db_connection_up',
    help: "This instance's long-lived database connections: 1 up, 0 lost and reconnecting",
    labelNames: ['connection'] as const,
    registers: [registry]
  })
  const losses = new client.Gauge({
    name: 'datahub_db_connection_losses',
    help: 'Times each long-lived database connection was lost since start',
    labelNames: ['connection'] as const,
    registers: [registry]
  })
  onScrape(async () => {
    connected.reset()
    losses.reset()
    for (const [name, s] of Object.entries(connections.snapshot())) {
      connected.set({ connection: name }, s.up ? 1 : 0)
      losses.set({ connection: name }, s.losses)
    }
  })

  /** The route pattern, never the raw path: labels must stay few (no ids, no references). */
  function routeOf(req: Request): string {
    // Answered before the routers (anonymous reads): the answering middleware names it.
    if (typeof req.res?.locals.route === 'string') return req.res.locals.route
    if (req.route?.path) return `${req.baseUrl}${String(req.route.path)}`.replace(/(.)\/$/, '$1')
    if (req.path.startsWith('/assets/')) return '/assets'
    if (req.path.startsWith('/api/')) return 'api-unmatched'
    return 'page'
  }

  const middleware: RequestHandler = (req, res, next) => {
    const end = latency.startTimer()
    res.on('finish', () => {
      const route = routeOf(req)
      end({ method: req.method, route })
      requests.inc({ method: req.method, route, status: String(res.statusCode) })
    })
    next()
  }

  // The database figures may be out of reach (an outage): the connection states are what matter then.
  const collect = () => Promise.allSettled(scrapers.map((f) => f()))
  return { registry, onScrape, collect, middleware }
}
export type Metrics = ReturnType<typeof createMetrics>

function allowed(req: Request, env: Env): boolean {
  const auth = req.get('authorization') ?? ''
  if (env.METRICS_TOKEN && auth.startsWith('Bearer ')) {
    const a = Buffer.from(auth.slice(7))
    const b = Buffer.from(env.METRICS_TOKEN)
    if (a.length === b.length && crypto.timingSafeEqual(a, b)) return true
  }
  const ips = env.METRICS_ALLOW_IPS.split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  const ip = (req.ip ?? '').replace(/^::ffff:/, '')
  return ips.includes(ip)
}

/** GET /metrics: Prometheus text format, for a token or an allowed address; 404 to anyone else. */
export function metricsHandler(metrics: Metrics, env: Env): RequestHandler {
  return async (req, res, next) => {
    if (!allowed(req, env)) return void res.status(404).json({ error: 'Not found' })
    try {
      await metrics.collect()
      res.set('Content-Type', metrics.registry.contentType)
      res.set('Cache-Control', 'no-store')
      res.send(await metrics.registry.metrics())
    } catch (err) {
      next(err)
    }
  }
}
