import { expect } from 'chai'
import fc from 'fast-check'
import fs from 'node:fs'
import path from 'node:path'
import { apiRouter } from '../../server/http/routes/index.ts'
import { ussdRouter } from '../../ussd/router.ts'
import { ussdSimulatorRouter } from '../../ussd/simulator-router.ts'
import { createAgent } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// Property-based fuzzing of every route. Whatever the method's path parameters,
// query, body, Content-Type and caller, the answer is never a 5xx. FUZZ_RUNS sets the runs per route.
const RUNS = Number(process.env.FUZZ_RUNS ?? 12)
const PAGE_RUNS = Math.max(2, Math.ceil(RUNS / 3))

interface RouteInfo {
  method: string
  path: string
}

// A lone surrogate has no UTF-8 form, so no client can send one: it becomes U+FFFD, as a browser would.
const enc = (s: string) => encodeURIComponent(s.toWellFormed())

/** Walks an Express 5 router's stack: mounted routers keep their mount path in rawPath, routes in route.path. */
function routesOf(router: any, prefix: string, out: RouteInfo[] = []): RouteInfo[] {
  for (const layer of router.stack ?? []) {
    if (layer.route) {
      const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]
      for (const p of paths)
        for (const m of Object.keys(layer.route.methods)) if (m !== '_all') out.push({ method: m.toUpperCase(), path: prefix + (p === '/' ? '' : p) })
    } else if (layer.handle?.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : ''
      routesOf(layer.handle, prefix + mount, out)
    }
  }
  return out
}

function pageRoutes(): RouteInfo[] {
  return fs
    .readdirSync('pages', { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('+Page.tsx') && !f.split(path.sep).some((s) => s.startsWith('_') || s.startsWith('catchall')))
    .map((f) => ({
      method: 'GET',
      path:
        '/' +
        path
          .dirname(f)
          .replace(/^index$/, '')
          .split(path.sep)
          .join('/')
    }))
}

const FIELDS = [
  'email',
  'password',
  'currentPassword',
  'newPassword',
  'name',
  'phone',
  'packageId',
  'network',
  'dataSizeMB',
  'recipientNumber',
  'transactionId',
  'paymentTransactionId',
  'payerPhone',
  'payerNetwork',
  'phone_number',
  'type',
  'fullName',
  'ghCard',
  'title',
  'message',
  'priority',
  'recipientIds',
  'commissionIds',
  'notes',
  'role',
  'priceUser',
  'priceAgent',
  'sizeMB',
  'active',
  'id',
  'siteName',
  'platformOpen',
  'agentRegistrationFee',
  'afaRegistrationFee',
  'commissionType',
  'commissionFixedAmount',
  'commissionPercentage',
  'paymentGateway',
  'pin',
  'refreshToken',
  'paymentStatus',
  'amount',
  'isActive',
  'phoneNumber',
  'sessionId',
  'text',
  'serviceCode',
  'delivered',
  'requestPayment',
  'callbackUrl',
  'page',
  'limit'
]
const QUERY_KEYS = [
  'page',
  'limit',
  'phoneNumber',
  'phone',
  'startDate',
  'endDate',
  'network',
  'search',
  'status',
  'groupBy',
  'reference',
  'trxref',
  'paymentStatus',
  'orderType',
  'includeExported',
  'range',
  'from',
  'to',
  'secret',
  'action',
  'severity',
  'format',
  'sort'
]

const nasty = fc.constantFrom(
  '',
  ' ',
  '0',
  '-1',
  '1e308',
  'NaN',
  'null',
  'undefined',
  '[]',
  '{}',
  "' OR 1=1 --",
  '<script>',
  '\u0000',
  'a\u0000b',
  '9'.repeat(40),
  '0241234567',
  '233241234567',
  'MTN',
  'SUCCESS',
  'admin@test.local',
  '2026-02-30',
  '../../etc/passwd',
  '%',
  '🙂',
  // Lone surrogates (no UTF-8 form; PostgreSQL refuses them in jsonb): high, low, reversed pair, inside text.
  '\uD800',
  '\uDFFF',
  'ab\uD800cd',
  '\uDC00\uD83D',
  'Ama \uDE42'
)
const text = fc.oneof(nasty, fc.string({ maxLength: 24 }), fc.string({ unit: 'binary', maxLength: 12 }))
const scalar = fc.oneof(text, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER + 2))
const value = fc.oneof({ weight: 4, arbitrary: scalar }, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom(...FIELDS), scalar, { maxKeys: 2 }))
const known = fc.dictionary(fc.constantFrom(...FIELDS), value, { maxKeys: 6 })
const param = fc.oneof(
  fc.nat({ max: 5 }).map(String),
  fc.nat().map(String),
  nasty.map(enc),
  fc.constantFrom('%ZZ', '%00', 'abc', '-5', '1.5', '99999999999999999999'),
  fc.string({ unit: 'binary', maxLength: 10 }).map(enc)
)
const query = fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(text, fc.nat().map(String))), { maxLength: 4 })
const body = fc.oneof(
  { weight: 5, arbitrary: known.map((b) => ({ json: b })) },
  fc.jsonValue({ maxDepth: 2 }).map((b) => ({ json: b })),
  fc
    .tuple(
      fc.constantFrom(
        'text/plain',
        'application/xml',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/json',
        'application/octet-stream'
      ),
      fc.string({ maxLength: 40 })
    )
    .map(([type, raw]) => ({ raw, type })),
  fc.constant({ none: true })
)
const caller = fc.constantFrom('anon', 'admin', 'agent')

describe('fuzz: every route answers bad input without a 5xx (fast-check)', function () {
  this.timeout(15 * 60_000)
  before(resetDb)

  it('sends generated requests to every API, USSD and page route: 0 answers are 5xx', async () => {
    const { services } = app()
    const { env, log } = services.deps
    const routes = [
      ...routesOf(apiRouter(services), '/api'),
      ...routesOf(ussdRouter(services, { env, log }), '/ussd'),
      ...routesOf(ussdSimulatorRouter(env), '/api/ussd-simulator')
    ]
    const pages = pageRoutes()
    expect(routes.length).to.be.above(60)
    const admin = await adminClient()
    const a = await createAgent()
    const agent = new Client()
    await agent.login(a.user.email, a.password)
    const clients: Record<string, () => Client> = { anon: () => new Client(), admin: () => admin, agent: () => agent }

    let requests = 0
    const failures: string[] = []
    async function send(r: RouteInfo, who: string, params: string[], q: Array<[string, string]>, b: any) {
      let i = 0
      // Logging out would end the shared sessions the other runs use.
      const c = r.path === '/api/auth/logout' ? new Client() : clients[who]!()
      const url =
        r.path.replace(/:(\w+)/g, () => params[i++ % params.length] ?? '1').replace(/\{\*\w+\}/g, 'x') +
        (q.length ? `?${q.map(([k, v]) => `${k}=${enc(v)}`).join('&')}` : '')
      const hasBody = !['GET', 'HEAD'].includes(r.method) && !b.none
      const res = hasBody
        ? b.json !== undefined
          ? await c.request(r.method, url, JSON.stringify(b.json), { 'Content-Type': 'application/json' })
          : await c.request(r.method, url, b.raw, { 'Content-Type': b.type })
        : await c.request(r.method, url)
      requests++
      if (res.status >= 500) failures.push(`${r.method} ${url} as ${who} -> ${res.status} ${res.text.slice(0, 200)}`)
      return res.status
    }

    for (const r of routes) {
      await fc
        .assert(
          fc.asyncProperty(
            caller,
            fc.array(param, { minLength: 1, maxLength: 3 }),
            query,
            body,
            async (who, params, q, b) => (await send(r, who, params, q, b)) < 500
          ),
          { numRuns: RUNS, endOnFailure: true }
        )
        .catch((err) => failures.push(`${r.method} ${r.path}: ${String(err.message).split('\n').slice(0, 3).join(' ')}`))
    }
    for (const r of pages) {
      await fc
        .assert(
          fc.asyncProperty(caller, query, async (who, q) => (await send(r, who, ['1'], q, { none: true })) < 500),
          { numRuns: PAGE_RUNS, endOnFailure: true }
        )
        .catch((err) => failures.push(`GET ${r.path}: ${String(err.message).split('\n').slice(0, 3).join(' ')}`))
    }
    const fivexx = failures.filter((f) => / -> 5\d\d /.test(f)).length
    console.log(`      fuzz: ${routes.length} API/USSD routes and ${pages.length} pages, ${requests} requests, ${fivexx} answered 5xx`)
    expect(failures, failures.slice(0, 10).join('\n')).to.deep.equal([])
  })
})
