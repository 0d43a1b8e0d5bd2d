// Back-office insight figures at volume: p50/p95 of the audit log and commission endpoints.
//
//   node_modules/.bin/node bench/insight.ts [--runs=40] [--orders=1000000]
//
// Uses its own throw-away database (DATA_DIR .data/bench-insight, port 54336 unless DATA_DIR /
// EMBEDDED_PG_PORT / BENCH_DATABASE_URL say otherwise), filled by scripts/seed-volume.ts (~1M orders)
// plus, here, one commission per SUCCESS order (older than 30 days archived) and ~2M audit entries.
// Prints figures only; it asserts nothing. Results go in docs/benchmarks-insight.md by hand.
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { seedDefaults } from '../server/services/seed/index.ts'
import { BENCH_ADMIN, openBenchDb, seedVolume } from '../scripts/seed-volume.ts'
import { boot } from '../main.ts'
import { createServices } from '../server/services/index.ts'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const RUNS = arg('runs', 40)
const ORDERS = arg('orders', 1_000_000)
// --only=text measures just the endpoints whose name contains it (and skips the full exports).
const ONLY = process.argv.find((a) => a.startsWith('--only='))?.slice(7)
process.env.DATA_DIR ??= path.resolve('.data/bench-insight')
process.env.EMBEDDED_PG_PORT ??= '54336'

const { env, log, db } = await openBenchDb()
const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
  db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }) as unknown as Promise<T[]>
const exec = (sql: string) => db.sequelize.query(sql)
const timed = async (label: string, fn: () => Promise<unknown>) => {
  const t = performance.now()
  await fn()
  console.log(`  ${label.padEnd(44)} ${((performance.now() - t) / 1000).toFixed(1)} s`)
}

await seedDefaults(db.models, createServices({ sequelize: db.sequelize, models: db.models, env, log }), {
  adminEmail: BENCH_ADMIN.email,
  adminPassword: BENCH_ADMIN.password,
  log
})
const [{ n: haveOrders }] = await q<{ n: string }>('SELECT count(*) AS n FROM orders')
if (Number(haveOrders) < ORDERS) {
  console.log(`seeding ${ORDERS.toLocaleString('en')} orders (scripts/seed-volume.ts)`)
  await seedVolume(db, { orders: ORDERS, agents: 10_000, afa: 1_000, reset: false })
}
const [{ n: haveCommissions }] = await q<{ n: string }>('SELECT count(*) AS n FROM commissions')
if (Number(haveCommissions) === 0) {
  console.log('seeding commissions and audit logs')
  await timed('commissions (one per SUCCESS order)', () =>
    exec(`
    INSERT INTO commissions (order_id, agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status, archived, archived_at, archive_notes, created_at)
    SELECT o.id, o.agent_id, o.network, o.amount_pesewas, round(o.amount_pesewas * 0.10), 'PERCENTAGE', 'PENDING',
           o.created_at < now() - interval '30 days',
           CASE WHEN o.created_at < now() - interval '30 days' THEN o.created_at + interval '30 days' END,
           CASE WHEN o.created_at < now() - interval '30 days' THEN 'Monthly payout' END,
           o.created_at + interval '1 minute'
    FROM orders o WHERE o.payment_status = 'SUCCESS' ON CONFLICT (order_id) DO NOTHING`)
  )
  await timed('audit: ORDER_CREATED per order', () =>
    exec(`
    INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
    SELECT o.created_at, o.user_id, 'ORDER_CREATED', 'ORDER', o.id::text, 'LOW', '41.66.' || (o.id % 250) || '.' || (o.id % 199),
           jsonb_build_object('network', o.network, 'amount', o.amount_pesewas / 100.0, 'channel', o.channel, 'recipientNumber', o.recipient_number)
    FROM orders o`)
  )
  await timed('audit: PAYMENT_SUCCESS/FAILED per settled order', () =>
    exec(`
    INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
    SELECT o.created_at + interval '2 minutes', o.user_id, CASE WHEN o.payment_status = 'SUCCESS' THEN 'PAYMENT_SUCCESS' ELSE 'PAYMENT_FAILED' END,
           'PAYMENT', o.payment_transaction_id, CASE WHEN o.payment_status = 'SUCCESS' THEN 'LOW' ELSE 'MEDIUM' END, NULL,
           jsonb_build_object('orderId', o.id, 'status', o.payment_status, 'gateway', 'simulator')
    FROM orders o WHERE o.payment_status IN ('SUCCESS', 'FAILED', 'EXPIRED')`)
  )
  await timed('audit: logins, approvals, settings', () =>
    exec(`
    INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
    SELECT now() - random() * interval '90 days', u.id, 'LOGIN', 'USER', u.id::text, 'LOW', '102.176.' || (u.id % 250) || '.' || (u.id % 97), jsonb_build_object('email', u.email)
    FROM users u CROSS JOIN generate_series(1, 2);
    INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
    SELECT a.created_at + interval '1 day', (SELECT min(id) FROM users WHERE role = 'ADMIN'), 'AGENT_APPROVED', 'AGENT', a.id::text, 'HIGH', '41.66.0.1', jsonb_build_object('approved', true)
    FROM agents a WHERE a.approved;
    INSERT INTO audit_logs (timestamp, user_id, action, resource, resource_id, severity, ip_address, details)
    SELECT now() - g * interval '1 day', (SELECT min(id) FROM users WHERE role = 'ADMIN'), 'SETTINGS_UPDATED', 'SETTINGS', '1', 'CRITICAL', '41.66.0.1', jsonb_build_object('changed', jsonb_build_array('platformOpen'))
    FROM generate_series(1, 60) g`)
  )
  await timed('VACUUM ANALYZE', () => exec('VACUUM ANALYZE'))
}

const [sizes] = await q<Record<string, string>>(
  `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM orders WHERE payment_status = 'SUCCESS') AS paid,
          (SELECT count(*) FROM commissions) AS commissions, (SELECT count(*) FROM commissions WHERE archived) AS archived,
          (SELECT count(*) FROM audit_logs) AS audit_logs, (SELECT count(*) FROM agents) AS agents`
)
console.log('data:', sizes)
console.log(`runs per endpoint: ${RUNS} (sequential, after 3 warm-up requests)\n`)

const running = await boot({ env, log, db })
const base = running.url
const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(BENCH_ADMIN) })
if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`)
const cookie = login.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ')
const csrf = ((await login.json()) as { csrfToken: string }).csrfToken
const headers = { Cookie: cookie, 'x-csrf-token': csrf, Accept: 'application/json', 'Content-Type': 'application/json' }

type Req = { path: string; method?: string; body?: unknown }
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const results: Array<{ name: string; p50: number; p95: number; max: number }> = []

async function call(r: Req) {
  const res = await fetch(base + r.path, { method: r.method ?? 'GET', headers, body: r.body === undefined ? undefined : JSON.stringify(r.body) })
  const buf = await res.arrayBuffer()
  if (!res.ok) throw new Error(`${r.path}: ${res.status} ${Buffer.from(buf).toString().slice(0, 200)}`)
  return buf.byteLength
}

async function measure(name: string, pick: (i: number) => Req | string, runs = RUNS) {
  if (ONLY && !name.includes(ONLY)) return
  const req = (i: number) => {
    const r = pick(i)
    return typeof r === 'string' ? { path: r } : r
  }
  for (let i = 0; i < 3; i++) await call(req(i))
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    await call(req(i + 3))
    times.push(performance.now() - t)
  }
  times.sort((a, b) => a - b)
  const row = { name, p50: pct(times, 50), p95: pct(times, 95), max: times.at(-1)! }
  results.push(row)
  console.log(
    `${name.padEnd(52)} p50 ${row.p50.toFixed(1).padStart(7)} ms   p95 ${row.p95.toFixed(1).padStart(7)} ms   max ${row.max.toFixed(1).padStart(7)} ms`
  )
}

const cycle =
  <T>(list: T[]) =>
  (i: number) =>
    list[i % list.length]!
const day = (ago: number) => new Date(Date.now() - ago * 86400_000).toISOString().slice(0, 10)
const users = (await q<{ user_id: number }>('SELECT user_id FROM orders TABLESAMPLE SYSTEM (0.1) WHERE user_id IS NOT NULL LIMIT 20')).map((r) => r.user_id)
const ips = (await q<{ ip_address: string }>(`SELECT ip_address FROM audit_logs TABLESAMPLE SYSTEM (0.05) WHERE ip_address IS NOT NULL LIMIT 20`)).map(
  (r) => r.ip_address
)

// Audit logs.
await measure('audit: page 1 (limit 50, no filter)', () => '/api/admin/audit-logs?page=1&limit=50')
await measure('audit: pages 1-40 (limit 50)', (i) => `/api/admin/audit-logs?page=${(i % 40) + 1}&limit=50`)
await measure('audit: limit 100, page 200', () => '/api/admin/audit-logs?page=200&limit=100')
await measure(
  'audit: action filter (each spec action)',
  cycle(
    ['LOGIN', 'ORDER_CREATED', 'PAYMENT_SUCCESS', 'PAYMENT_FAILED', 'AGENT_APPROVED', 'SETTINGS_UPDATED', 'LOGOUT', 'USER_CREATED'].map(
      (a) => `/api/admin/audit-logs?action=${a}`
    )
  )
)
await measure('audit: resource filter', cycle(['USER', 'AGENT', 'ORDER', 'PAYMENT', 'SETTINGS', 'SYSTEM'].map((r) => `/api/admin/audit-logs?resource=${r}`)))
await measure('audit: severity filter', cycle(['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'].map((s) => `/api/admin/audit-logs?severity=${s}`)))
await measure('audit: userId filter', cycle(users.map((u) => `/api/admin/audit-logs?userId=${u}`)))
await measure('audit: ipAddress filter', cycle(ips.map((ip) => `/api/admin/audit-logs?ipAddress=${ip}`)))
await measure('audit: resourceId filter', (i) => `/api/admin/audit-logs?resourceId=${1000 + i * 7919}`)
await measure('audit: date range (7 days)', () => `/api/admin/audit-logs?startDate=${day(7)}&endDate=${day(0)}`)
await measure('audit: action + severity + 30 days', () => `/api/admin/audit-logs?action=PAYMENT_FAILED&severity=MEDIUM&startDate=${day(30)}&endDate=${day(0)}`)
await measure(
  'audit: export 1 day CSV (filtered)',
  () => ({ path: '/api/admin/audit-logs/export', method: 'POST', body: { format: 'csv', filters: { startDate: day(1), endDate: day(0) } } }),
  5
)
{
  const [{ n }] = await q<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE timestamp >= :from::date AND timestamp < :to::date + 1`, {
    from: day(1),
    to: day(0)
  })
  if (!ONLY || 'audit: export'.includes(ONLY)) console.log(`  (the 1-day audit export holds ${Number(n).toLocaleString('en')} rows)`)
}
await measure(
  'audit: export 1 day JSON (filtered)',
  () => ({ path: '/api/admin/audit-logs/export', method: 'POST', body: { format: 'json', filters: { startDate: day(1), endDate: day(0) } } }),
  5
)

// Commissions.
await measure('commissions: summary (all dates)', () => '/api/commissions/summary')
await measure('commissions: summary (30 days)', () => `/api/commissions/summary?startDate=${day(30)}&endDate=${day(0)}`)
await measure('commissions: list page 1 (limit 20)', () => '/api/commissions?page=1&limit=20')
await measure('commissions: list pages 1-40', (i) => `/api/commissions?page=${(i % 40) + 1}&limit=20`)
await measure('commissions: list 7 days', () => `/api/commissions?page=1&limit=20&startDate=${day(7)}&endDate=${day(0)}`)
await measure('analytics: summary (current/archived/combined)', () => '/api/commission-analytics/summary')
for (const g of ['day', 'week', 'month', 'agent', 'network'])
  await measure(`analytics: groupBy=${g} (all dates)`, () => `/api/commission-analytics/analytics?groupBy=${g}`)
await measure('analytics: groupBy=day (30 days)', () => `/api/commission-analytics/analytics?groupBy=day&startDate=${day(30)}&endDate=${day(0)}`)
await measure('analytics: leaderboard limit 10', () => '/api/commission-analytics/agent-leaderboard?limit=10')
await measure('analytics: leaderboard limit 100', () => '/api/commission-analytics/agent-leaderboard?limit=100')
await measure(
  'analytics: leaderboard 30 days + network',
  () => `/api/commission-analytics/agent-leaderboard?limit=10&network=MTN&startDate=${day(30)}&endDate=${day(0)}`
)
await measure('analytics: network-analytics', () => '/api/commission-analytics/network-analytics')
await measure('analytics: archived page 1 (limit 20)', () => '/api/commission-analytics/archived?page=1&limit=20')
await measure('analytics: archived pages 1-40', (i) => `/api/commission-analytics/archived?page=${(i % 40) + 1}&limit=20`)
await measure('export: leaderboard CSV (top 100)', () => '/api/commission-analytics/export/leaderboard-csv?limit=100', 10)
await measure('export: analytics CSV (by day)', () => '/api/commission-analytics/export/analytics-csv?groupBy=day', 10)

// Archive 20 selected at a time (moves real rows; put back afterwards).
const current = (await q<{ id: number }>('SELECT id FROM commissions WHERE NOT archived ORDER BY created_at DESC LIMIT :n', { n: 20 * (RUNS + 3) })).map(
  (r) => r.id
)
await measure('archive: 20 selected', (i) => ({
  path: '/api/commission-analytics/archive',
  method: 'POST',
  body: { commissionIds: current.slice(i * 20, i * 20 + 20), notes: 'bench' }
}))
await exec(`UPDATE commissions SET archived = false, archived_at = NULL, archive_notes = NULL WHERE archive_notes = 'bench'`)

// Full exports: throughput, once each.
if (!ONLY)
  for (const [name, p] of [
    ['export: current commissions CSV', '/api/commission-analytics/export/current-csv'],
    ['export: archived commissions CSV', '/api/commission-analytics/export/csv']
  ] as const) {
    const t = performance.now()
    const bytes = await call({ path: p })
    const s = (performance.now() - t) / 1000
    console.log(`${name.padEnd(52)} ${s.toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`)
  }
if (!ONLY) {
  const t = performance.now()
  const bytes = await call({ path: '/api/admin/audit-logs/export', method: 'POST', body: { format: 'csv', filters: { startDate: day(30), endDate: day(0) } } })
  console.log(
    `${'export: audit CSV, 30 days'.padEnd(52)} ${((performance.now() - t) / 1000).toFixed(1)} s, ${(bytes / 1e6).toFixed(1)} MB, rss ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`
  )
}

const over = results.filter((r) => r.p95 > 300)
console.log(`\n${results.length} endpoints measured; p95 over 300 ms: ${over.length ? over.map((r) => r.name).join(', ') : 'none'}`)
await running.stop()
await db.close().catch(() => {})
process.exit(0)
