// `npm run bench`: HTTP figures for the public pages (visitors and signed in) and the two hottest
// JSON endpoints on the production build and the embedded database, next to baselines measured the
// same way in the same run: a bare node:http server answering the same JSON bytes, and the
// in-process render rate of the same page doing the same work (bench/render-rate.ts). Each ratio is
// printed with both of its sides. Prints figures; asserts nothing.
//   BENCH_SECONDS (10 per target, split into BENCH_ROUNDS slices, 5), BENCH_CONNECTIONS (20), BENCH_PORT (3100; +1 for the bare server), BENCH_PG_PORT (54330)
//   BENCH_ONLY: measure only the targets whose name contains it or one of its comma-separated parts (no render rates
//   then; only the signed-in pages' ratios), e.g. BENCH_ONLY=shop or BENCH_ONLY=dashboard,overview
import { spawnSync } from 'node:child_process'
import pg from 'pg'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { hashSecret } from '../server/lib/crypto.ts'
import { BENCH_DB_URL, BENCH_ENV, ROOT, fmt, load, postgresCpuSeconds, processCpuSeconds, startChild, stopChild, wireBytes, type Figures } from './lib.ts'

const only = process.env.BENCH_ONLY
const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 20)
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5))
const PORT = process.env.BENCH_PORT ?? '3100'
const BARE_PORT = String(Number(PORT) + 1)

if (!fs.existsSync(path.join(ROOT, 'dist/server/entry.mjs')) || process.env.BENCH_BUILD) {
  spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: ROOT, stdio: 'inherit' })
}

const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
console.log(
  `Data Hub HTTP benchmark: ${seconds}s per target in ${rounds} slices, ${connections} connections, node ${process.version}, ${new Date().toISOString()}, load ${loadavg()}`
)
const server = await startChild('main.ts', { ...BENCH_ENV, PORT }, `http://127.0.0.1:${PORT}/readyz`)
const base = `http://127.0.0.1:${PORT}`

// A signed-in browser: the admin's session cookie (pages render for them on every request).
const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: BENCH_ENV.ADMIN_EMAIL, password: BENCH_ENV.ADMIN_PASSWORD })
})
const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!
if (!login.ok || !cookie) throw new Error(`bench sign-in failed: ${login.status}`)

// An agent's shop selling three bundles, written straight into the bench database: the sample
// business has none, and registering an agent through the API would need its fee paid.
// The shop's agent signs in too (its dashboard is a signed-in target).
const SHOP = 'bench-shop'
const AGENT_PASSWORD = 'bench-agent-password'
{
  const db = new pg.Client({ connectionString: BENCH_DB_URL })
  await db.connect()
  await db.query(
    `WITH u AS (INSERT INTO users (email, name, password_hash, role) VALUES ('bench-shop@datahub.local', 'Bench Shop', $1, 'AGENT')
                    ON CONFLICT (lower(email)) DO UPDATE SET name = EXCLUDED.name, password_hash = EXCLUDED.password_hash RETURNING id),
                 a AS (INSERT INTO agents (user_id, name, phone, approved, payment_status) SELECT id, 'Bench Shop', '0240000999', true, 'SUCCESS' FROM u
                    ON CONFLICT (user_id) DO UPDATE SET approved = true RETURNING id),
                 s AS (INSERT INTO shops (agent_id, slug, name, description) SELECT id, '${SHOP}', 'Bench Data Shop', 'Bundles for the bench' FROM a
                    ON CONFLICT (agent_id) DO UPDATE SET status = 'ACTIVE' RETURNING id)
            INSERT INTO shop_prices (shop_id, package_id, price_pesewas)
            SELECT s.id, p.id, COALESCE(p.price_agent_pesewas, p.price_user_pesewas) FROM s, (SELECT * FROM packages WHERE active ORDER BY id LIMIT 3) p
            ON CONFLICT (shop_id, package_id) DO NOTHING`,
    [await hashSecret(AGENT_PASSWORD)]
  )
  // A checker product with a card in stock for /checkers (the PIN is never opened by the page).
  await db.query(
    `WITH p AS (INSERT INTO voucher_products (name, how_to_use, checking_url, price_user_pesewas, price_agent_pesewas)
                VALUES ('Bench BECE checker', 'Check at', 'https://eresults.waecgh.org', 2000, 1800)
                ON CONFLICT (name) DO UPDATE SET active = true RETURNING id)
     INSERT INTO voucher_cards (product_id, serial, pin_sealed) SELECT id, 'BENCH0001', 'sealed:v1:bench' FROM p ON CONFLICT (product_id, serial) DO NOTHING`
  )
  await db.end()
}
const agentLogin = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: 'bench-shop@datahub.local', password: AGENT_PASSWORD })
})
const agentCookie = (agentLogin.headers.get('set-cookie') ?? '').split(';')[0]!
if (!agentLogin.ok || !agentCookie) throw new Error(`bench agent sign-in failed: ${agentLogin.status}`)

// What Chromium sends: the page is measured as a browser receives it, compressed.
const browserish = { 'user-agent': 'Mozilla/5.0', accept: 'text/html', 'accept-encoding': 'gzip, deflate, br, zstd' }

// The bare server answers exactly the bytes the API answered, one body per path. (Fetched now: a
// kept-alive socket left idle while the renders run would be closed under the next fetch.)
const bodies = { '/api/settings': await (await fetch(`${base}/api/settings`)).text(), '/api/packages': await (await fetch(`${base}/api/packages`)).text() }

// The in-process render rate of each page, on the same build and database, measured while the
// server is idle: half before the HTTP rounds and half after, averaged (the load drifts).
const renderRate = (url: string, secs: number) => {
  const r = spawnSync(process.execPath, ['bench/render-rate.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...BENCH_ENV, BENCH_SECONDS: String(secs), BENCH_CONNECTIONS: String(connections), BENCH_URL: url },
    encoding: 'utf8'
  })
  if (r.status !== 0) throw new Error(`render-rate ${url} failed: ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}').rendersPerSecond as number
}
const PAGES = only ? [] : ['/', '/data-services']
const rendersBefore = PAGES.map((u) => renderRate(u, seconds / 2))

// Signed-in pages: the bare server answers the very bytes (and Content-Encoding) the page answered.
const SIGNED_IN: [string, string, string][] = [
  ['GET /agent/dashboard (agent)', '/agent/dashboard', agentCookie],
  ['GET /admin/overview (admin)', '/admin/overview', cookie]
]
const wire: Record<string, { body: string; encoding?: string; type?: string }> = {}
for (const [, p, c] of SIGNED_IN) wire[p] = await wireBytes(`${base}${p}`, { ...browserish, cookie: c })
const bare = await startChild(
  'bench/bare-http.ts',
  { PORT: BARE_PORT, BENCH_BODIES: JSON.stringify(bodies), BENCH_WIRE: JSON.stringify(wire) },
  `http://127.0.0.1:${BARE_PORT}/api/settings`
)
const bareBase = `http://127.0.0.1:${BARE_PORT}`

const allTargets: [string, string, Record<string, string>?][] = [
  ['GET / (visitor)', `${base}/`, browserish],
  [`GET /shop/${SHOP} (visitor)`, `${base}/shop/${SHOP}`, browserish],
  ['GET /data-services (visitor)', `${base}/data-services`, browserish],
  ['GET /checkers (visitor)', `${base}/checkers`, browserish],
  ['GET / (visitor, no Accept-Encoding)', `${base}/`, { 'user-agent': 'Mozilla/5.0', accept: 'text/html' }],
  ['GET / (signed in)', `${base}/`, { ...browserish, cookie }],
  ...SIGNED_IN.flatMap(([name, p, c]): [string, string, Record<string, string>][] => [
    [name, `${base}${p}`, { ...browserish, cookie: c }],
    [`bare node:http ${p} same bytes`, `${bareBase}${p}`, browserish]
  ]),
  ['GET /api/settings', `${base}/api/settings`],
  ['bare node:http /api/settings JSON', `${bareBase}/api/settings`],
  ['GET /api/packages', `${base}/api/packages`],
  ['bare node:http /api/packages JSON', `${bareBase}/api/packages`]
]
const targets = only ? allTargets.filter(([name]) => only.split(',').some((o) => name.includes(o))) : allTargets
// On a shared machine the load drifts within a run: every target is measured in ROUNDS slices,
// round-robin, so the two sides of each ratio see the same conditions. req/s is the mean of the
// slices, p50 their median, p99 the worst slice's.
// Warm-up (not counted): JIT, first renders into the page cache, sockets.
for (const [, url, headers] of targets) await load(url, { seconds: 1, connections, headers })
const slices: Record<string, Figures[]> = {}
// CPU per response of the app and of PostgreSQL (from /proc): on a machine others load too, what a
// request costs is steadier than how many fit in a second.
const cpu: Record<string, { app: number; db: number; n: number }> = {}
const pgDir = path.join(BENCH_ENV.DATA_DIR, 'pg')
for (let round = 0; round < rounds; round++) {
  for (const [name, url, headers] of targets) {
    const app0 = processCpuSeconds(server.pid!)
    const db0 = postgresCpuSeconds(pgDir)
    const f = await load(url, { seconds: seconds / rounds, connections, headers })
    const c = (cpu[name] ??= { app: 0, db: 0, n: 0 })
    c.app += processCpuSeconds(server.pid!) - app0
    c.db += postgresCpuSeconds(pgDir) - db0
    c.n += f.total ?? 0
    ;(slices[name] ??= []).push(f)
  }
}
await stopChild(bare)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const figures: Record<string, Figures> = {}
for (const [name, fs] of Object.entries(slices)) {
  figures[name] = {
    reqs: fs.reduce((a, f) => a + f.reqs, 0) / fs.length,
    p50: median(fs.map((f) => f.p50)),
    p99: Math.max(...fs.map((f) => f.p99)),
    bytes: fs.reduce((a, f) => a + f.bytes, 0) / fs.length,
    errors: fs.reduce((a, f) => a + f.errors, 0),
    non2xx: fs.reduce((a, f) => a + f.non2xx, 0)
  }
}

const rendersAfter = PAGES.map((u) => renderRate(u, seconds / 2))
const renders: Record<string, number> = Object.fromEntries(PAGES.map((u, i) => [u, (rendersBefore[i]! + rendersAfter[i]!) / 2]))
await stopChild(server)

const pad = (s: string) => s.padEnd(36)
console.log('')
for (const [name, f] of Object.entries(figures)) console.log(`${pad(name)}${fmt(f)}   (p99 per slice ${slices[name]!.map((s) => s.p99).join(' ')})`)
console.log('')
for (const [name, c] of Object.entries(cpu)) {
  if (!name.startsWith('bare') && c.n)
    console.log(
      `${pad(`CPU per response, ${name}`)}app ${((c.app / c.n) * 1000).toFixed(2)} ms   PostgreSQL ${((c.db / c.n) * 1000).toFixed(2)} ms   (${c.n} responses)`
    )
}
PAGES.forEach((url, i) => {
  console.log(
    `${pad(`in-process render ${url}`)}${renders[url]!.toFixed(0).padStart(7)} renders/s (${connections} in flight, no HTTP; before ${rendersBefore[i]!.toFixed(0)}, after ${rendersAfter[i]!.toFixed(0)})`
  )
})
console.log('')
const ratio = (a: string, av: number, b: string, bv: number) => console.log(`ratio ${a} / ${b}: ${av.toFixed(0)} / ${bv.toFixed(0)} = ${(av / bv).toFixed(2)}`)
for (const [name, p] of SIGNED_IN) {
  const bareName = `bare node:http ${p} same bytes`
  if (figures[name] && figures[bareName]) ratio(name, figures[name].reqs, bareName, figures[bareName].reqs)
}
if (only) {
  console.log(`load average at the end: ${loadavg()}`)
  process.exit(0)
}
ratio('GET / (visitor)', figures['GET / (visitor)']!.reqs, 'in-process render /', renders['/']!)
ratio('GET /data-services (visitor)', figures['GET /data-services (visitor)']!.reqs, 'in-process render /data-services', renders['/data-services']!)
ratio('GET / (signed in)', figures['GET / (signed in)']!.reqs, 'in-process render /', renders['/']!)
ratio('GET /api/settings', figures['GET /api/settings']!.reqs, 'bare node:http', figures['bare node:http /api/settings JSON']!.reqs)
ratio('GET /api/packages', figures['GET /api/packages']!.reqs, 'bare node:http', figures['bare node:http /api/packages JSON']!.reqs)
console.log(`load average at the end: ${loadavg()}`)
