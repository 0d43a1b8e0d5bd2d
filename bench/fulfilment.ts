// Fulfilment throughput: N paid orders through the job queue to the simulator vendor.
//
//   node_modules/.bin/node bench/fulfilment.ts [--orders=1000] [--rounds=1] [--concurrency=8] [--settlers=16] [--vendor-delay=0] [--statements]
//     [--waits] [--no-notify-triggers | --notify-alternate] [--webhook] [--wal-relations] [--cpu-profile=FILE]
//
// Each round is followed by a bare baseline in the same process (bareRound: one committed UPDATE and
// one POST to a bare node:http vendor per order, same concurrency), printed beside it.
//
// One app instance in this process (production build, workers on, own embedded PostgreSQL under
// .data/bench-fulfilment on port 54380; BENCH_DATA_DIR, BENCH_PG_PORT and BENCH_PORT move them so
// several checkouts can run it side by side). --statements counts every statement the process
// sends to PostgreSQL during the run (both pools) and prints them per order, most frequent first. It inserts N pending orders with their payments, then
// settles them through the real exactly-once settlement (--settlers at a time), which queues each
// delivery in its transaction; the instance's workers (--concurrency) hand them to the simulator
// vendor (--vendor-delay ms per call). Measured: orders/s from the first settlement to the last
// DELIVERED, and payment success (settlement committed) -> vendor call latency.
// --webhook: each settlement arrives as the gateway sends it in production, a signed Paystack `charge.success`
// POSTed to /api/webhooks/paystack over HTTP (keep-alive, --settlers at a time; the app runs with a Paystack
// key, the payments are Paystack's), so the event's record, its signature check and the route are measured
// too; its latency runs from the POST's start (the gateway's callback) to the vendor call. The POSTs come from a child
// process (bench/paystack-poster-child.ts): the app's CPU per order is the app's alone, the client's is printed apart.
// Prints figures; asserts nothing. Results go in docs/benchmarks-fulfilment.md by hand.
import os from 'node:os'
import { fork } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { QueryTypes } from 'sequelize'
import { loadEnv } from '../server/env.ts'
import { boot } from '../main.ts'
import { createLogger } from '../server/lib/logger.ts'
import { resolveClusterDir } from '../models/embedded.ts'
import { countStatements, printPgStats, startWaitSampler, topWaits, walAndUpdates, walAndUpdatesText, walFlushes as walFlushesOf } from './fulfilment-waits.ts'
import { postgresCpuSeconds } from './lib.ts'
import { bareBaseline } from './fulfilment-bare.ts'
import { printRoundTable, type RoundFigures } from './fulfilment-table.ts'
import { startCpuProfile } from './cpu-profile.ts'
import { chargeSuccessClient } from './paystack-charge-success.ts'
import { walByRelation, walByRelationText, walPosition } from './fulfilment-wal-relations.ts'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const N = arg('orders', 1000)
const CONCURRENCY = arg('concurrency', 8)
const SETTLERS = arg('settlers', 16)
const VENDOR_DELAY = arg('vendor-delay', 0)
const STATEMENTS = process.argv.includes('--statements')
const INSTANCES = arg('instances', 1)
// --rounds=3: the run this many times over (each from the same emptied tables), each followed by the bare baseline.
const ROUNDS = arg('rounds', 1)
// --pg-stats: PostgreSQL's own time per statement shape in each round (pg_stat_statements, planning included). The
// cluster must preload it: `shared_preload_libraries = 'pg_stat_statements'` and
// `pg_stat_statements.track_planning = on` in its postgresql.auto.conf (see docs/benchmarks-fulfilment.md).
const PG_STATS = process.argv.includes('--pg-stats')
// --waits: per round, what the busy backends wait on (pg_stat_activity every 10 ms; no preload needed), and
// per order the WAL flushes and writes of the whole cluster (pg_stat_io; the bench's own reads flush nothing), its WAL
// records and bytes (pg_stat_wal), and the updates of orders, payments and sms_outbox with the share that was HOT
// (pg_stat_user_tables: a HOT update adds no index entry).
const WAITS = process.argv.includes('--waits') || PG_STATS
// --no-notify-triggers: the triggers that pg_notify at commit (page, shop, checker and session notices) disabled
// on this bench's own throw-away database for the whole run; --notify-alternate: odd rounds with them, even
// rounds without, so both are measured in one process (--notify-alternate=off: odd rounds without, so
// the first, colder round falls to each setting in turn). A transaction that queued a NOTIFY takes one
// cluster-wide lock at commit and holds it past its WAL flush: this shows what that costs.
const NO_NOTIFY = process.argv.includes('--no-notify-triggers')
const ALTERNATE = process.argv.some((a) => a.startsWith('--notify-alternate'))
const OFF_FIRST = process.argv.includes('--notify-alternate=off')
// --instances=2: a second app instance in its own process (its own core), on the same database.
const CHILD = process.env.BENCH_CHILD_DB_URL
const WEBHOOK = process.argv.includes('--webhook')
// --wal-relations: per round, the WAL records and bytes per order by the relation (table or index) they write, from
// the first settlement until the last text is sent (bench/fulfilment-wal-relations.ts).
const WAL_RELATIONS = process.argv.includes('--wal-relations')
// --cpu-profile=FILE: a CPU profile of this process (the app, its workers, the vendor fake and the bench) over the
// last round, from the first settlement until the last text is sent, written as FILE (.cpuprofile, 100 us
// between samples); bench/profile-groups.ts sums it. --profile-round=1: that round instead (the first, on a fresh server).
const CPU_PROFILE = process.argv.find((a) => a.startsWith('--cpu-profile='))?.split('=')[1]
const PROFILE_ROUND = arg('profile-round', 0)
const PAYSTACK_KEY = 'sk_test_bench_fulfilment_webhook'
const now = () => performance.timeOrigin + performance.now()
const loadNow = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')

// The gateway's POSTs come from a child process: its CPU (signing, node:http's client) is reported apart from the app's.
// It is started before the app, whose Paystack calls (the reconcile jobs' list and verify) go to its fake API.
const BENCH_APP_PORT = Number(process.env.BENCH_PORT ?? 3211)
const gateway = WEBHOOK && !CHILD ? await chargeSuccessClient({ port: BENCH_APP_PORT, secretKey: PAYSTACK_KEY, atOnce: SETTLERS }) : undefined

const env = loadEnv({
  ...process.env,
  NODE_ENV: 'production',
  PORT: String(BENCH_APP_PORT + (CHILD ? 1 : 0)),
  HOST: '127.0.0.1',
  DATA_DIR: path.resolve(process.env.BENCH_DATA_DIR ?? '.data/bench-fulfilment'),
  EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? '54380',
  JOBS_ENABLED: '1',
  LOG_LEVEL: 'error',
  QUEUE_CONCURRENCY: String(CONCURRENCY),
  QUEUE_POOL_MAX: String(CONCURRENCY + 2),
  DELIVERY_SIMULATOR_DELAY_MS: String(VENDOR_DELAY),
  ADMIN_EMAIL: 'bench-fulfilment@datahub.local',
  ADMIN_PASSWORD: 'bench-fulfilment-password',
  SESSION_SECRET: 'bench-fulfilment-session-secret-0000000000',
  ...(WEBHOOK ? { PAYSTACK_SECRET_KEY: PAYSTACK_KEY, PAYER_EMAIL_DOMAIN: 'customers.datahub.invalid' } : {}),
  ...(gateway || process.env.BENCH_PAYSTACK_API ? { PAYSTACK_BASE_URL: gateway?.apiUrl ?? process.env.BENCH_PAYSTACK_API } : {}),
  ...(CHILD ? { DATABASE_URL: CHILD, PAYMENT_PROVIDER: 'simulator' } : {})
})
const running = await boot({ env, log: createLogger('error') })
const { sequelize } = running.db
const { services } = running

if (CHILD) {
  // The second instance: its workers take jobs from the same queue; it reports each vendor call.
  const vendor = services.delivery.vendors.simulator.vendor
  const send = vendor.send.bind(vendor)
  ;(vendor as { send: typeof vendor.send }).send = (order, key) => {
    process.send!({ called: order.id, at: now() })
    return send(order, key)
  }
  let cpu0 = process.cpuUsage()
  process.on('message', async (m: string) => {
    if (m === 'go') cpu0 = process.cpuUsage()
    if (m === 'report') {
      const cpu = process.cpuUsage(cpu0)
      process.send!({ cpuMs: (cpu.user + cpu.system) / 1000 })
    }
    if (m !== 'stop') return
    await running.stop()
    process.exit(0)
  })
  process.send!('ready')
  await new Promise(() => {})
}
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

/**
 * N pending orders with their payments on emptied tables: every round starts from the same state. The
 * simulator vendor's keys are emptied too, and each round's references are its own: an order id and
 * reference seen in an earlier round would give the same idempotency key, which the simulator answers
 * from its memory without its row (a round that skipped the vendor's write per order).
 */
async function seedOrders(round: number) {
  await sequelize.query('TRUNCATE orders, payments, commissions, sms_outbox, audit_logs, delivery_simulator_sends RESTART IDENTITY CASCADE')
  await sequelize.query('DELETE FROM graphile_worker._private_jobs')
  await sequelize.query(
    `
    WITH o AS (
      INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, payment_phone_number, package_name)
      SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, 'PENDING', 'bench' || :round || '-' || g, '0241234567', '1GB daily' FROM generate_series(1, :n) g
      RETURNING id, payment_transaction_id)
    INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, payer_phone, order_id)
    SELECT payment_transaction_id, 'data', :gateway, 'momo', 'PENDING', 500, '0241234567', id FROM o`,
    { replacements: { n: N, round, gateway: WEBHOOK ? 'paystack' : 'simulator' } }
  )
  return q<{ transaction_id: string; order_id: number }>('SELECT transaction_id, order_id FROM payments ORDER BY id')
}

// The moment each order reaches the vendor: the simulator's send, wrapped (in every instance).
const calledAt = new Map<number, number>()
const vendor = services.delivery.vendors.simulator.vendor
const send = vendor.send.bind(vendor)
;(vendor as { send: typeof vendor.send }).send = (order, key) => {
  if (!calledAt.has(order.id)) calledAt.set(order.id, now())
  return send(order, key)
}
const others = await Promise.all(
  Array.from({ length: INSTANCES - 1 }, async () => {
    const child = fork(fileURLToPath(import.meta.url), process.argv.slice(2), {
      env: { ...process.env, BENCH_CHILD_DB_URL: running.db.url, ...(gateway ? { BENCH_PAYSTACK_API: gateway.apiUrl } : {}) }
    })
    let reported: ((cpuMs: number) => void) | undefined
    child.on('message', (m: { called?: number; at?: number; cpuMs?: number }) => {
      if (m.called !== undefined && !calledAt.has(m.called)) calledAt.set(m.called, m.at!)
      if (m.cpuMs !== undefined) reported?.(m.cpuMs)
    })
    await new Promise<void>((resolve, reject) => {
      child.on('message', (m) => m === 'ready' && resolve())
      child.on('exit', (code) => reject(new Error(`second instance exited (${code}) before it was ready`)))
    })
    /** Its CPU since the round's 'go'. */
    const report = () =>
      new Promise<number>((resolve) => {
        reported = resolve
        child.send('report')
      })
    return { child, report }
  })
).catch((err) => {
  console.error((err as Error).message)
  process.exit(1)
})

// Every statement either pool sends, by its text (--statements).
const statements = STATEMENTS ? countStatements() : undefined

// PostgreSQL's CPU (the postmaster and its backends, from /proc): the other half of the cost per order.
const clusterDir = resolveClusterDir(env.DATA_DIR, 'pg')
const pgCpuMs = () => postgresCpuSeconds(clusterDir) * 1000

if (PG_STATS) {
  await sequelize.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
  await sequelize.query('SELECT pg_stat_statements_reset()')
}
// With --waits (or --pg-stats), what PostgreSQL's busy backends are waiting on (bench/fulfilment-waits.ts).
const sampler = WAITS ? await startWaitSampler(running.db.url) : undefined
const waits = sampler?.waits ?? new Map<string, number>()
const roundWaits = sampler?.roundWaits ?? new Map<string, number>()
const walFlushes = () => walFlushesOf((sql) => q<{ fsyncs: string; writes: string }>(sql))
const walWritten = () => walAndUpdates((sql) => q<Record<string, string>>(sql))

// The triggers whose function calls pg_notify, on this database's own tables (the app's migrations made them).
const notifyTriggers = await q<{ tgname: string; tbl: string }>(
  `SELECT t.tgname, t.tgrelid::regclass::text AS tbl FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
    JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE NOT t.tgisinternal AND n.nspname = 'public' AND p.prosrc ILIKE '%pg_notify%' ORDER BY 2, 1`
)
// Read, not assumed: a run stopped midway may have left them off. An ALTER TABLE that changes nothing would still
// invalidate every backend's plans and catalog entries of those tables, making the first round colder than a server's.
const [{ disabled }] = await q<{ disabled: string }>(`SELECT count(*) FILTER (WHERE tgenabled = 'D') AS disabled FROM pg_trigger WHERE tgname IN (:names)`, {
  names: notifyTriggers.length ? notifyTriggers.map((t) => t.tgname) : ['']
})
let notifying: boolean | undefined = Number(disabled) === 0 ? true : Number(disabled) === notifyTriggers.length ? false : undefined
/** Enable or disable those triggers (ALTER TABLE, committed before the round starts). */
async function setNotifyTriggers(on: boolean) {
  if (on === notifying) return
  for (const t of notifyTriggers) await sequelize.query(`ALTER TABLE ${t.tbl} ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${t.tgname}`)
  notifying = on
}
if (NO_NOTIFY || ALTERNATE)
  console.log(
    `notify triggers (${notifyTriggers.length}, ${NO_NOTIFY ? 'disabled for the run' : OFF_FIRST ? 'off in odd rounds, on in even ones' : 'on in odd rounds, off in even ones'}): ${notifyTriggers.map((t) => `${t.tbl}.${t.tgname}`).join(' ')}`
  )
/** One round through the app: N orders settled, queued and handed to the vendor. */
async function appRound(round: number): Promise<RoundFigures> {
  await setNotifyTriggers(!NO_NOTIFY && !(ALTERNATE && round % 2 === (OFF_FIRST ? 1 : 0)))
  const pending = await seedOrders(round)
  calledAt.clear()
  const wal0 = WAITS ? await walFlushes() : undefined
  const written0 = WAITS ? await walWritten() : undefined
  const walStart = WAL_RELATIONS ? await walPosition(q) : undefined
  roundWaits.clear()
  const load0 = os.loadavg()[0]!
  const pgCpu0 = pgCpuMs()
  const settledAt = new Map<number, number>()
  statements?.on()
  const profiler = CPU_PROFILE && round === (PROFILE_ROUND || ROUNDS) ? await startCpuProfile(CPU_PROFILE) : undefined
  if (PG_STATS) await sequelize.query('SELECT pg_stat_statements_reset()')
  const [{ at: roundAt }] = await q<{ at: string }>('SELECT now()::text AS at')
  for (const o of others) o.child.send('go')
  const cpu0 = process.cpuUsage()
  const started = performance.now()
  let next = 0
  let clientCpuMs: number | undefined
  if (gateway) {
    // The webhook's latency runs from the gateway's POST: the pump, woken at the settlement's commit, may
    // call the vendor before the webhook's answer is back.
    const posted = await gateway.postAll(
      pending.map((p) => p.transaction_id),
      round
    )
    for (const [i, p] of pending.entries()) settledAt.set(p.order_id, posted.sentAt[i]!)
    clientCpuMs = posted.cpuMs
  } else
    await Promise.all(
      Array.from({ length: SETTLERS }, async () => {
        while (next < pending.length) {
          const p = pending[next++]!
          await services.payments.settle(p.transaction_id, { status: 'SUCCESS', message: 'Approved', amountPesewas: 500, currency: 'GHS' })
          settledAt.set(p.order_id, now())
        }
      })
    )
  const settledAll = performance.now()
  for (;;) {
    const [row] = await q<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE delivery_status = 'DELIVERED'`)
    if (Number(row!.n) >= N) break
    await new Promise((r) => setTimeout(r, 20))
  }
  const done = performance.now()
  // CPU is counted until the orders' texts are out too: all the work an order causes.
  const smsDeadline = performance.now() + 120_000
  for (;;) {
    const [row] = await q<{ n: string }>(`SELECT count(*) AS n FROM sms_outbox WHERE status <> 'SENT'`)
    if (Number(row!.n) === 0 || performance.now() > smsDeadline) break
    await new Promise((r) => setTimeout(r, 50))
  }
  const allDone = performance.now()
  if (profiler) await profiler.stop()
  const walEnd = walStart ? await walPosition(q) : undefined
  const cpu = process.cpuUsage(cpu0)
  const pgCpu = pgCpuMs() - pgCpu0
  const roundWaitsText = WAITS ? topWaits(roundWaits) : undefined
  statements?.off()
  const otherCpuMs = (await Promise.all(others.map((o) => o.report()))).reduce((a, b) => a + b, 0)

  const lat = pending.map((p) => calledAt.get(p.order_id)! - settledAt.get(p.order_id)!).sort((a, b) => a - b)
  const pct = (p: number) => lat[Math.min(lat.length - 1, Math.floor((p / 100) * lat.length))]!.toFixed(0)
  const [sms] = await q<{ sent: string; total: string }>(`SELECT count(*) FILTER (WHERE status = 'SENT') AS sent, count(*) AS total FROM sms_outbox`)
  const [dup] = await q<{ n: string }>(
    `SELECT count(*) AS n FROM (SELECT resource_id FROM audit_logs WHERE action = 'ORDER_DELIVERED' GROUP BY 1 HAVING count(*) > 1) d`
  )
  console.log(
    `round ${round}: ${N} orders, ${INSTANCES} instance(s) with worker concurrency ${CONCURRENCY} each, ${SETTLERS} settling at once, simulator delay ${VENDOR_DELAY} ms, notify triggers ${notifying ? 'on' : 'off'}`
  )
  console.log(
    `  settlement:        ${(N / ((settledAll - started) / 1000)).toFixed(0)} payments/s (all settled in ${((settledAll - started) / 1000).toFixed(2)} s)`
  )
  console.log(
    `  delivered:         ${(N / ((done - started) / 1000)).toFixed(0)} orders/s (first settlement to last DELIVERED: ${((done - started) / 1000).toFixed(2)} s)`
  )
  console.log(`  success -> vendor: p50 ${pct(50)} ms   p95 ${pct(95)} ms   p99 ${pct(99)} ms   max ${lat[lat.length - 1]!.toFixed(0)} ms`)
  console.log(
    `  this process used ${((cpu.user + cpu.system) / 1000 / N).toFixed(1)} ms CPU per order over ${((allDone - started) / 1000).toFixed(1)} s wall (${(((cpu.user + cpu.system) / 1000 / (allDone - started)) * 100).toFixed(0)}% of one core); load average ${load0.toFixed(1)} at the start, ${os.loadavg()[0]!.toFixed(1)} at the end`
  )
  if (others.length)
    console.log(
      `  the other instance(s) used ${(otherCpuMs / N).toFixed(1)} ms CPU per order: ${((cpu.user + cpu.system) / 1000 / N + otherCpuMs / N).toFixed(1)} ms of app CPU per order in all`
    )
  if (clientCpuMs !== undefined)
    console.log(
      `  the bench client's own CPU per order (the gateway's signed POSTs, a process of its own, not counted above): ${(clientCpuMs / N).toFixed(2)} ms`
    )
  console.log(`  PostgreSQL used ${(pgCpu / N).toFixed(1)} ms CPU per order (postmaster and backends)`)
  console.log(
    `  sms: ${sms!.sent} of ${sms!.total} sent, the last ${((allDone - done) / 1000).toFixed(1)} s after the last delivery (CPU above counted until then); orders delivered twice: ${dup!.n}`
  )
  let walPerOrder: string | undefined
  if (wal0) {
    // Read after the round, the bench's own polls included: the same for both settings.
    const wal = await walFlushes()
    walPerOrder = `${((wal.fsyncs - wal0.fsyncs) / N).toFixed(2)} WAL flushes and ${((wal.writes - wal0.writes) / N).toFixed(2)} WAL writes per order`
    console.log(`  busy backends by wait (${roundWaitsText})`)
    console.log(`  ${walPerOrder}`)
    // The seed's insert and TRUNCATE came before written0: these are the round's own writes (the bench's polls write nothing).
    console.log(`  ${walAndUpdatesText(written0!, await walWritten(), N)}`)
  }
  if (walStart) console.log(walByRelationText(await walByRelation(q, walStart, walEnd!), N))
  // A connection opened during the round is a new backend: its catalog caches and prepared statements start empty.
  const [opened] = await q<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE backend_start > :at::timestamptz`, { at: roundAt })
  console.log(`  connections opened during the round (still open): ${opened!.n}`)
  if (PG_STATS) await printPgStats(q, N)
  const appCpu = (cpu.user + cpu.system) / 1000
  return {
    notify: notifying,
    appCpu: appCpu / N,
    clientCpu: clientCpuMs !== undefined ? clientCpuMs / N : undefined,
    pgCpu: pgCpu / N,
    core: appCpu / (allDone - started),
    waits: roundWaitsText,
    walPerOrder,
    perSecond: N / ((done - started) / 1000),
    p50: Number(pct(50)),
    p95: Number(pct(95)),
    p99: Number(pct(99)),
    load: loadNow()
  }
}

async function bareRound(): Promise<RoundFigures> {
  const f = { ...(await bareBaseline({ dbUrl: running.db.url, orders: N, atOnce: SETTLERS, now })), load: loadNow() }
  console.log(`  bare node:http + pg, same round: ${f.perSecond.toFixed(0)} orders/s, commit -> vendor p50 ${f.p50} ms   p95 ${f.p95} ms   p99 ${f.p99} ms`)
  return f
}

const figures: { app: RoundFigures; bare: RoundFigures }[] = []
for (let round = 1; round <= ROUNDS; round++) {
  const app = await appRound(round)
  figures.push({ app, bare: await bareRound() })
}
statements?.off()
for (const o of others) o.child.send('stop')
gateway?.stop()
printRoundTable(figures)
statements?.print(N * ROUNDS)
await sampler?.stop()
// The cluster is kept for the next run: leave its triggers as the migrations made them.
await setNotifyTriggers(true)
if (WAITS) console.log(`  busy backends by wait over the run (every 10 ms, ${topWaits(waits)})`)
await running.stop()
process.exit(0)
