// Three instances on one PostgreSQL behind HAProxy (deploy/haproxy.cfg), buying, lookup, sign-in
// and admin traffic through the balancer, and a rolling SIGTERM restart; prints requests sent,
// failed and the p99, and checks sessions survive and each order is settled once. Run by
// deploy/test-cluster.sh (see docs/operations.md) and by .ci/run. Loopback only; bounded in
// requests and time.
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import net from 'node:net'
import path from 'node:path'
import pg from 'pg'
import { startEmbedded } from '../models/embedded.ts'
import { testClusterDir } from '../test/helpers/server.ts'

const root = path.resolve(import.meta.dirname, '..')
const node = process.execPath
const BASE = Number(process.env.CLUSTER_BASE_PORT ?? 3160)
const LB = BASE
const APPS = [BASE + 1, BASE + 2, BASE + 3]
const STATS = BASE + 4
// Next to the instances, below the kernel's ephemeral range (32768+) where the test suite's
// embedded PostgreSQL and servers take their free ports: a run after `npm test` cannot collide.
const PG_PORT = Number(process.env.CLUSTER_PG_PORT ?? BASE + 5)
const WORKERS = Number(process.env.CLUSTER_WORKERS ?? 16)
const MAX_REQUESTS = Number(process.env.CLUSTER_MAX_REQUESTS ?? 40_000)
const MAX_SECONDS = Number(process.env.CLUSTER_MAX_SECONDS ?? 240)
const SETTLE_SECONDS = Number(process.env.CLUSTER_SETTLE_SECONDS ?? 5) // traffic before and after the restarts
const ADMIN = { email: 'cluster-admin@example.com', password: 'cluster-admin-pass-123' }
const SECRET = 'cluster-test-session-secret-0123456789abcdef'
const work = path.join(root, '.data', `cluster-test-${process.pid}`)

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const say = (m: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${m}`)

// ---- processes -------------------------------------------------------------------------------
let dbUrl = ''
const apps: { port: number; child?: ChildProcess; log: string }[] = APPS.map((port, i) => ({ port, log: path.join(work, `app${i + 1}.log`) }))

function startApp(i: number) {
  const a = apps[i]!
  const out = fs.openSync(a.log, 'a')
  a.child = spawn(node, [path.join(root, 'main.ts')], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(a.port),
      HOST: '127.0.0.1',
      DATABASE_URL: dbUrl,
      SESSION_SECRET: SECRET,
      PAYMENT_PROVIDER: 'simulator',
      TRUST_PROXY: '1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: process.env.SHUTDOWN_DRAIN_MS ?? '5000',
      DB_POOL_MAX: '10'
    },
    stdio: ['ignore', out, out]
  })
}

async function ready(port: number, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs
  while (Date.now() < until) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false
      )
    )
      return
    await sleep(250)
  }
  throw new Error(`instance on ${port} did not become ready`)
}

const exited = (c: ChildProcess) => new Promise<number | null>((r) => (c.exitCode !== null ? r(c.exitCode) : c.once('exit', (code) => r(code))))

// ---- traffic ---------------------------------------------------------------------------------
const stats = { sent: 0, failed: 0, sessionLost: 0, latencies: [] as number[], errors: new Map<string, number>() }
const approved: string[] = []
let stopTraffic = false

function note(kind: string) {
  stats.errors.set(kind, (stats.errors.get(kind) ?? 0) + 1)
}

interface Res {
  status: number
  body: any
  cookies: string[]
}
const cookieHeader = (set: string[]) => set.map((c) => c.split(';')[0]).join('; ')
function request(agent: http.Agent, method: string, p: string, body?: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body)
    const req = http.request(
      {
        host: '127.0.0.1',
        port: LB,
        method,
        path: p,
        agent,
        headers: { Accept: 'application/json', ...(data ? { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } : {}), ...headers }
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (d) => (text += d))
        res.on('end', () => {
          let parsed: any = text
          try {
            parsed = JSON.parse(text)
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, cookies: res.headers['set-cookie'] ?? [] })
        })
        res.on('error', reject)
      }
    )
    req.on('error', reject)
    req.setTimeout(20_000, () => req.destroy(new Error('timeout')))
    req.end(data)
  })
}

async function timed(label: string, ok: (r: Res) => boolean, fn: () => Promise<Res>): Promise<Res | undefined> {
  if (stats.sent >= MAX_REQUESTS) return undefined
  stats.sent++
  const t0 = performance.now()
  try {
    const r = await fn()
    stats.latencies.push(performance.now() - t0)
    if (!ok(r)) {
      stats.failed++
      note(`${label} ${r.status}`)
    }
    return r
  } catch (err) {
    stats.latencies.push(performance.now() - t0)
    stats.failed++
    note(`${label} ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`)
    return undefined
  }
}

let nextIp = 1
function newAgent() {
  // Each simulated customer has an address of its own (per-address rate limits are real).
  const n = nextIp++
  return new http.Agent({ keepAlive: true, localAddress: `127.1.${(n >> 8) & 255}.${n & 255}` })
}

async function worker(id: number, packages: number[]) {
  let agent = newAgent()
  let orders = 0
  let cookie = ''
  let csrf = ''
  // The buyer's own browser session, apart from the admin's: the purchase sets it, and only that
  // browser (or whoever gives the paying phone) may then read the payment's status, as in the shop.
  let buyer: Record<string, string> = {}
  const signIn = async () => {
    const r = await timed(
      'login',
      (x) => x.status === 200,
      () => request(agent, 'POST', '/api/auth/login', ADMIN)
    )
    if (r?.status === 200) {
      cookie = cookieHeader(r.cookies)
      csrf = r.body.csrfToken
    }
  }
  await signIn()
  while (!stopTraffic && stats.sent < MAX_REQUESTS) {
    const roll = Math.random()
    if (roll < 0.4) {
      if (++orders > 15) {
        agent.destroy()
        agent = newAgent()
        buyer = {}
        orders = 0
      }
      const phone = `024${String(1000000 + ((id * 7919 + stats.sent) % 8999999)).padStart(7, '0')}`
      const r = await timed(
        'order',
        (x) => x.status === 201,
        () =>
          request(
            agent,
            'POST',
            '/api/orders',
            { packageId: packages[stats.sent % packages.length], recipientNumber: phone, payerPhone: phone, payerNetwork: 'MTN' },
            buyer
          )
      )
      if (r?.cookies.length) buyer = { Cookie: cookieHeader(r.cookies) }
      const tid = r?.body?.transactionId ?? r?.body?.payment?.transactionId
      if (tid) {
        const a = await timed(
          'approve',
          (x) => x.status === 200,
          () => request(agent, 'POST', `/api/simulator/payments/${tid}/approve`, {}, buyer)
        )
        if (a?.status === 200) approved.push(String(tid))
        await timed(
          'status',
          (x) => x.status === 200,
          () => request(agent, 'GET', `/api/payment/status/${tid}`, undefined, buyer)
        )
      }
    } else if (roll < 0.65) {
      // Spread over 500 numbers: the per-number lookup limit (30 in 10 min) is a rule the cluster
      // keeps, not one this traffic means to trip.
      await timed(
        'lookup',
        (x) => x.status === 200,
        () => request(agent, 'GET', `/api/orders?phoneNumber=024${1000000 + (stats.sent % 500)}`)
      )
    } else if (roll < 0.9) {
      const r = await timed(
        'me',
        (x) => x.status === 200,
        () => request(agent, 'GET', '/api/auth/me', undefined, { Cookie: cookie })
      )
      if (r && r.status === 401) stats.sessionLost++
    } else if (roll < 0.97) {
      await timed(
        'admin-orders',
        (x) => x.status === 200,
        () => request(agent, 'GET', '/api/orders?page=1&limit=20', undefined, { Cookie: cookie, 'x-csrf-token': csrf })
      )
    } else {
      await signIn()
    }
  }
  agent.destroy()
}

// ---- half a body before SIGTERM, the rest after, straight to the instance ---------------------
function halfBodyRequest(port: number, packageId: number, n: number) {
  const body = JSON.stringify({ packageId, recipientNumber: '0240000001', payerPhone: '0240000001', payerNetwork: 'MTN' })
  const half = Math.floor(body.length / 2)
  const sock = net.connect({ port, host: '127.0.0.1', localAddress: `127.2.0.${n}` })
  let reply = ''
  let error = ''
  sock.on('data', (d) => (reply += d))
  sock.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message))
  const done = new Promise<{ ok: boolean; detail: string }>((r) =>
    sock.once('close', () => r({ ok: /^HTTP\/1\.1 201 /.test(reply), detail: error || reply.split('\r\n')[0] || 'closed without a reply' }))
  )
  sock.once('connect', () =>
    sock.write(
      `POST /api/orders HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`
    )
  )
  return { finish: () => sock.write(body.slice(half)), done }
}

// ---- the run ---------------------------------------------------------------------------------
async function main() {
  fs.mkdirSync(work, { recursive: true })
  say(`PostgreSQL on ${PG_PORT} (fsync on), instances on ${APPS.join(', ')}, HAProxy on ${LB}`)
  // Where the postgres user can reach it: a checkout under /root (CI's clone) cannot hold it.
  const db = await startEmbedded({ dir: testClusterDir(`cluster-test-${process.pid}`), port: PG_PORT, database: 'datahub', persistent: false })
  dbUrl = db.url
  let haproxy: ChildProcess | undefined
  const report: string[] = []
  let ok = false
  try {
    startApp(0)
    await ready(APPS[0]!) // the first one migrates and seeds
    startApp(1)
    startApp(2)
    await Promise.all([ready(APPS[1]!), ready(APPS[2]!)])
    const hlog = fs.openSync(path.join(work, 'haproxy.log'), 'a')
    haproxy = spawn('/usr/sbin/haproxy', ['-db', '-f', path.join(root, 'deploy/haproxy.cfg')], {
      env: {
        ...process.env,
        DATAHUB_LISTEN: `127.0.0.1:${LB}`,
        DATAHUB_APP1: `127.0.0.1:${APPS[0]}`,
        DATAHUB_APP2: `127.0.0.1:${APPS[1]}`,
        DATAHUB_APP3: `127.0.0.1:${APPS[2]}`,
        DATAHUB_STATS: `127.0.0.1:${STATS}`
      },
      stdio: ['ignore', hlog, hlog]
    })
    await ready(LB, 20_000)
    const client = new pg.Client({ connectionString: dbUrl })
    await client.connect()
    const packages = (await client.query("SELECT id FROM packages WHERE active AND network = 'MTN'")).rows.map((r) => r.id as number)

    const started = performance.now()
    const deadline = setTimeout(() => (stopTraffic = true), MAX_SECONDS * 1000)
    const traffic = Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i, packages)))
    await sleep(SETTLE_SECONDS * 1000)
    const halfResults: { ok: boolean; detail: string }[] = []
    for (let i = 0; i < apps.length && !stopTraffic; i++) {
      const a = apps[i]!
      say(`rolling restart: SIGTERM to instance ${i + 1}`)
      const pending = [1, 2, 3].map((n) => halfBodyRequest(a.port, packages[0]!, i * 3 + n))
      await sleep(200)
      const gone = exited(a.child!)
      a.child!.kill('SIGTERM')
      await sleep(500)
      for (const p of pending) p.finish()
      halfResults.push(...(await Promise.all(pending.map((p) => p.done))))
      const code = await gone
      say(`instance ${i + 1} exited with ${code}; starting it again`)
      startApp(i)
      await ready(a.port)
      await sleep(3000) // HAProxy's rise 2 at 1 s, then a little traffic before the next one
    }
    await sleep(SETTLE_SECONDS * 1000)
    stopTraffic = true
    clearTimeout(deadline)
    await traffic
    const seconds = (performance.now() - started) / 1000

    // Each approved order settled exactly once: one PAYMENT_SUCCESS audit entry, order marked paid.
    const twice = await client.query("SELECT resource_id, count(*) FROM audit_logs WHERE action = 'PAYMENT_SUCCESS' GROUP BY resource_id HAVING count(*) > 1")
    const paid = await client.query("SELECT count(*)::int AS n FROM payments WHERE status = 'SUCCESS' AND transaction_id = ANY($1)", [approved])
    const paidOrders = await client.query("SELECT count(*)::int AS n FROM orders WHERE payment_status = 'SUCCESS' AND payment_transaction_id = ANY($1)", [
      approved
    ])
    await client.end()

    for (const a of apps) a.child!.kill('SIGTERM')
    const codes = await Promise.all(apps.map((a) => exited(a.child!)))
    const stoppedLines = apps.map(
      (a) =>
        fs
          .readFileSync(a.log, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"msg":"stopped"')).length
    )

    const lat = stats.latencies.sort((x, y) => x - y)
    const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]?.toFixed(1)
    const halfReset = halfResults.filter((r) => !r.ok)
    report.push(
      `requests sent through HAProxy: ${stats.sent} in ${seconds.toFixed(1)} s (${(stats.sent / seconds).toFixed(0)}/s) by ${WORKERS} clients`,
      `failed: ${stats.failed}${stats.errors.size ? ` (${[...stats.errors].map(([k, v]) => `${k}: ${v}`).join(', ')})` : ''}`,
      `latency ms: p50 ${pct(50)}, p99 ${pct(99)}, max ${lat.at(-1)?.toFixed(1)}`,
      `sessions lost: ${stats.sessionLost}`,
      `half a body before SIGTERM, rest after (straight to the instance): ${halfResults.length - halfReset.length}/${halfResults.length} answered${halfReset.length ? ` (${halfReset.map((r) => r.detail).join('; ')})` : ''}`,
      `orders approved: ${approved.length}; payments SUCCESS: ${paid.rows[0].n}; orders paid: ${paidOrders.rows[0].n}; settled more than once: ${twice.rowCount}`,
      `"stopped" logged per instance: ${stoppedLines.join(', ')} (2 each: the rolling restart and the end); exit codes at the end: ${codes.join(', ')}`
    )
    ok =
      stats.failed === 0 &&
      stats.sessionLost === 0 &&
      halfReset.length === 0 &&
      twice.rowCount === 0 &&
      paid.rows[0].n === approved.length &&
      paidOrders.rows[0].n === approved.length &&
      stoppedLines.every((n) => n === 2) &&
      codes.every((c) => c === 0)
  } finally {
    stopTraffic = true
    haproxy?.kill('SIGTERM')
    for (const a of apps) if (a.child && a.child.exitCode === null) a.child.kill('SIGKILL')
    await db.stop().catch(() => {})
  }
  console.log(`\n${report.join('\n')}\nresult: ${ok ? 'PASS' : 'FAIL'} (logs in ${path.relative(root, work)})`)
  if (ok && !process.env.CLUSTER_KEEP) fs.rmSync(work, { recursive: true, force: true })
  process.exit(ok ? 0 : 1)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
