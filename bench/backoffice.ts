// Back-office figures at volume: p50/p95 per endpoint and export throughput with memory.
//
//   node_modules/.bin/node scripts/seed-volume.ts     # once: ~1M orders, 10k agents, 100k AFA
//   node_modules/.bin/node --expose-gc bench/backoffice.ts [--runs=60] [--export-only=1] [--exports=50000,200000,400000] [--rounds=1] [--encoding=gzip|br|identity] [--gc-ms=2000]
//
// Each export is followed, in the same round, by the bare node:http baseline sending the same bytes
// (bench/export-run.ts, bareExportServer) to the same client, and both are printed side by side.
// Uses its own database (scripts/seed-volume.ts: DATA_DIR .data/bench-backoffice), never dev data.
// Prints figures only; it asserts nothing. Results go in docs/benchmarks-backoffice.md by hand.
import { QueryTypes } from 'sequelize'
import { BENCH_ADMIN, openBenchDb } from '../scripts/seed-volume.ts'
import { boot } from '../main.ts'
import fs from 'node:fs'
import os from 'node:os'
import { bareExportServer, loadAverage, measureExport, printExport, type ExportFigures } from './export-run.ts'
import { postgresCpu } from './lib.ts'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const RUNS = arg('runs', 60)
// --exports=50000,200000,400000 (the sizes, in order); --export=N is --exports=N
const EXPORTS = (
  process.argv.find((a) => a.startsWith('--exports='))?.split('=')[1] ??
  (process.argv.some((a) => a.startsWith('--export=')) ? String(arg('export', 0)) : '50000,200000,400000')
)
  .split(',')
  .map(Number)
  .filter((x) => x > 0)
// What the export client accepts: a browser's Accept-Encoding by default; --encoding=gzip (or br) for one
// encoding, --encoding=identity (or BENCH_IDENTITY=1) for none.
const ENCODING =
  process.argv.find((a) => a.startsWith('--encoding='))?.split('=')[1] ?? (process.env.BENCH_IDENTITY === '1' ? 'identity' : 'gzip, deflate, br, zstd')
const GC_MS = arg('gc-ms', 2000) // forced GC + live heap sample interval during an export; 0 = none
const EXPORT_ONLY = arg('export-only', 0) === 1 // skip the endpoint timings
const ROUNDS = arg('rounds', 1) // the export sizes, this many times over
// The decoded file of the last export, which the bare baseline sends again (memory, not disk).
const SAVED = `${fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir()}/datahub-bench-export-${process.pid}.csv`

const { env, log, db } = await openBenchDb()
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }) as unknown as Promise<T[]>
const [{ n: orderCount }] = await q<{ n: string }>('SELECT count(*) AS n FROM orders')
if (Number(orderCount) < 1000) {
  console.error('The bench database is (nearly) empty: run `node_modules/.bin/node scripts/seed-volume.ts` first.')
  await db.close()
  process.exit(1)
}
const running = await boot({ env, log, db })
const base = running.url

// Sign in like the browser: session cookie + CSRF token.
const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(BENCH_ADMIN) })
if (!login.ok) throw new Error(`admin login failed: ${login.status} ${await login.text()}`)
const cookie = login.headers
  .getSetCookie()
  .map((c) => c.split(';')[0])
  .join('; ')
const csrf = ((await login.json()) as { csrfToken: string }).csrfToken
const headers = { Cookie: cookie, 'x-csrf-token': csrf, Accept: 'application/json' }

const [{ data_directory: pgDataDir }] = await q<{ data_directory: string }>('SHOW data_directory')
const pgCpu = () => postgresCpu(pgDataDir)

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
const results: Array<{ name: string; p50: number; p95: number; max: number; note: string }> = []

async function measure(name: string, paths: string[] | (() => string), note = '') {
  if (EXPORT_ONLY) return
  const pick = typeof paths === 'function' ? paths : (i: number) => paths[i % paths.length]!
  for (let i = 0; i < 5; i++) await (await fetch(base + pick(i), { headers })).arrayBuffer() // warm-up
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    const res = await fetch(base + pick(i), { headers })
    await res.arrayBuffer()
    times.push(performance.now() - t)
    if (!res.ok) throw new Error(`${name}: ${res.status} for ${pick(i)}`)
  }
  times.sort((a, b) => a - b)
  const row = { name, p50: pct(times, 50), p95: pct(times, 95), max: times.at(-1)!, note }
  results.push(row)
  console.log(
    `${name.padEnd(46)} p50 ${row.p50.toFixed(1).padStart(7)} ms   p95 ${row.p95.toFixed(1).padStart(7)} ms   max ${row.max.toFixed(1).padStart(7)} ms  ${note}`
  )
}

const sizes = await q<Record<string, string>>(
  `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM orders_view WHERE NOT exported) AS active,
          (SELECT count(*) FROM agents) AS agents, (SELECT count(*) FROM afa_registrations) AS afa`
)
console.log('data:', sizes[0])
console.log('machine:', `${os.cpus().length} CPUs, load average ${loadAverage()}`)
console.log(`runs per endpoint: ${RUNS} (sequential, after 5 warm-up requests)\n`)

// Realistic search terms taken from the data itself.
const samples = await q<{ recipient_number: string; payment_transaction_id: string }>(
  'SELECT recipient_number, payment_transaction_id FROM orders TABLESAMPLE SYSTEM (0.1) LIMIT 40'
)
const agentNames = await q<{ name: string; phone: string }>('SELECT name, phone FROM agents TABLESAMPLE SYSTEM (5) LIMIT 20')
const afaSamples = await q<{ full_name: string; phone: string; gh_card: string }>(
  'SELECT full_name, phone, gh_card FROM afa_registrations TABLESAMPLE SYSTEM (1) LIMIT 20'
)
const enc = encodeURIComponent
const searches = [
  ...samples.slice(0, 20).map((s) => s.recipient_number.slice(-7)),
  ...samples.slice(20, 30).map((s) => s.recipient_number),
  ...samples.slice(30, 40).map((s) => s.payment_transaction_id.slice(-9)),
  ...agentNames.slice(0, 10).map((a) => a.name),
  ...agentNames.slice(10, 20).map((a) => a.phone),
  'mtn',
  'failed',
  'telecel',
  '3GB',
  'in progress'
]
const pages = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

await measure('orders: active page 1 (limit 20)', ['/api/orders?page=1&limit=20'])
await measure(
  'orders: active pages 1-50 (limit 20)',
  pages(50).map((p) => `/api/orders?page=${p}&limit=20`)
)
await measure('orders: active, limit 100', ['/api/orders?page=1&limit=100'])
await measure('orders: history page 1', ['/api/orders?page=1&limit=20&includeExported=true'])
await measure(
  'orders: history pages 1-50',
  pages(50).map((p) => `/api/orders?page=${p}&limit=20&includeExported=true`)
)
await measure('orders: filters (network+status+type)', [
  '/api/orders?network=MTN&paymentStatus=FAILED',
  '/api/orders?network=TELECEL&orderType=agent',
  '/api/orders?paymentStatus=PENDING&orderType=direct',
  '/api/orders?includeExported=true&network=AIRTELTIGO&orderType=agent',
  '/api/orders?includeExported=true&network=MTN'
])
await measure(
  'orders: search active (mixed terms)',
  searches.map((s) => `/api/orders?page=1&limit=20&search=${enc(s)}`),
  `${searches.length} terms`
)
await measure(
  'orders: search history (mixed terms)',
  searches.map((s) => `/api/orders?page=1&limit=20&includeExported=true&search=${enc(s)}`),
  `${searches.length} terms`
)
await measure('admin: stats', ['/api/admin/stats'])
await measure('admin: analytics today', ['/api/admin/analytics?range=today'])
await measure('admin: analytics 7d', ['/api/admin/analytics?range=7d'])
await measure('admin: analytics 30d', ['/api/admin/analytics?range=30d'])
await measure(
  'afa: page 1 and pages 1-50',
  pages(50).map((p) => `/api/afa?page=${p}&limit=20`)
)
await measure(
  'afa: search (name, phone, card)',
  afaSamples.flatMap((a) => [a.full_name, a.phone.slice(-6), a.gh_card.slice(4, 13)]).map((s) => `/api/afa?search=${enc(s)}`)
)

// Export: make `rows` paid orders pending again (setup, not timed), then stream them out with the
// client in its own process (bench/export-run.ts).
async function exportRun(rows: number, label = `export ${rows.toLocaleString('en')}`) {
  // The newest exported orders are taken out of order_exports; any that carry the export in their row
  // (exported before migration 190) are made undelivered too. They become the export's candidates
  // again (ADR 0050), which the triggers on orders cannot see here: no orders row changes.
  await db.sequelize.query(
    `WITH back AS (DELETE FROM order_exports WHERE order_id IN (SELECT order_id FROM order_exports ORDER BY order_id DESC LIMIT :rows) RETURNING order_id),
     undelivered AS (UPDATE orders SET delivered = false, delivered_at = NULL, delivery_status = 'NOT_STARTED' WHERE id IN (SELECT order_id FROM back) AND delivered)
     INSERT INTO order_export_candidates (order_id) SELECT order_id FROM back ON CONFLICT DO NOTHING`,
    { replacements: { rows } }
  )
  // Candidates left by an export that did not take them out (code from before ADR 0050, run on this database).
  await db.sequelize.query('DELETE FROM order_export_candidates c USING order_exports x WHERE x.order_id = c.order_id')
  // Now no candidate names an exported order, whatever prune the runs before left pending or the
  // set-up's writes marked: the export leaves out its probe of order_exports (ADR 0054).
  await db.sequelize.query('DELETE FROM order_export_prunes')
  await db.sequelize.query('VACUUM ANALYZE orders')
  await db.sequelize.query('VACUUM ANALYZE order_export_candidates')
  // Rewritten packed, as a table that only ever grows (a shop never deletes exports): the deletes
  // above would otherwise scatter the next export's rows into their holes and bloat its indexes.
  await db.sequelize.query('VACUUM FULL order_exports')
  await db.sequelize.query('VACUUM ANALYZE order_exports') // the visibility map, which VACUUM FULL leaves empty (index-only scans)
  await db.sequelize.query('CHECKPOINT') // no checkpoint of the setup's writes during the measured export
  const f = await measureExport({
    url: `${base}/api/orders/export`,
    headers: { ...headers, 'Accept-Encoding': ENCODING },
    pgCpu,
    gcMs: GC_MS,
    save: SAVED
  })
  printExport(label, f)
  const [clash] = await db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM order_export_prunes WHERE stamp = '-infinity'`, {
    type: QueryTypes.SELECT
  })
  console.log(
    `  probe of order_exports: ${clash!.n ? 'clashed, ran again with it' : 'no prune pending (a short walk leaves it out; the one pass keeps its anti-join)'}`
  )
  if (f.rows !== rows) console.log(`  (expected ${rows.toLocaleString('en')} rows: other paid orders were pending too)`)
  const b = await measureExport({ url: bare.url, headers: { 'Accept-Encoding': ENCODING }, pgCpu, gcMs: GC_MS })
  printExport(`  bare node:http, same bytes`, b)
  console.log(`  app ${Math.round(f.rows / f.secs).toLocaleString('en')} rows/s = ${((b.secs / f.secs) * 100).toFixed(0)}% of bare node:http`)
  return { app: f, bare: b }
}
const bare = await bareExportServer(() => SAVED)

console.log('')
console.log(`export runs: ${EXPORTS.map((r) => r.toLocaleString('en')).join(', ')} rows, Accept-Encoding: ${ENCODING}; live heap sampled every ${GC_MS} ms`)
await exportRun(2_000, 'warm-up export 2,000')
const exported: { app: ExportFigures; bare: ExportFigures }[] = []
for (let round = 1; round <= ROUNDS; round++)
  for (const rows of EXPORTS) exported.push(await exportRun(rows, `round ${round}, export ${rows.toLocaleString('en')}`))
await bare.close()
fs.rmSync(SAVED, { force: true })
console.log(
  '\n| Export | Rows/s (bare node:http, same bytes) | Time (first byte / streaming) | CPU per row: server (bare) / PostgreSQL / client | Server memory peak: RSS, heap used, live heap (bare) | Load |'
)
console.log('|---|---:|---|---|---|---|')
const mib = (b: number) => (b / 1048576).toFixed(0)
const rate = (f: ExportFigures) => Math.round(f.rows / f.secs).toLocaleString('en')
for (const { app: f, bare: b } of exported) {
  console.log(
    `| ${f.rows.toLocaleString('en')} (${f.encoding}) | ${rate(f)} (${rate(b)}) | ${f.secs.toFixed(2)} s (${f.ttfb.toFixed(2)} / ${(f.secs - f.ttfb).toFixed(2)}) | ` +
      `${f.us.server.toFixed(1)} (${b.us.server.toFixed(1)}) / ${f.us.pg.toFixed(1)} / ${f.us.client.toFixed(1)} us | ` +
      `${mib(f.memory.rss[1])}, ${mib(f.memory.heap[1])}, ${mib(f.memory.live[1])} MB (${mib(b.memory.rss[1])}, ${mib(b.memory.heap[1])}, ${mib(b.memory.live[1])}) | ${f.load} |`
  )
}

// AFA export: every registration.
{
  const t = performance.now()
  const res = await fetch(`${base}/api/afa/export`, { method: 'POST', headers })
  const text = await res.text()
  const secs = (performance.now() - t) / 1000
  const rows = text.split('\n').length - 2
  console.log(`afa export: ${rows.toLocaleString('en')} rows in ${secs.toFixed(2)} s = ${Math.round(rows / secs).toLocaleString('en')} rows/s`)
}

console.log('load average at the end:', loadAverage())
await running.stop()
await db.close().catch(() => {})
