// Placing an order, one after another (no concurrency): the latency of each request from send to
// answer, for a visitor's mobile-money order (POST /api/orders with the payer's phone: the order, its
// payment and the simulator's prompt) and an agent's wallet order over the reseller API (POST
// /api/v1/orders with an Idempotency-Key), next to a bare node:http server answering the same JSON
// bytes the same way in the same rounds. Also counts the statements each order sends (bench/statement-log.ts, on only for the profiled orders after the rounds).
// Production server, embedded PostgreSQL with fsync on. Prints figures; asserts nothing.
//   BENCH_ORDERS (200 per round), BENCH_ROUNDS (3), BENCH_WARMUP (0: rounds of each kind run first, not counted), BENCH_PORT (3100; +1 for the bare server), BENCH_PG_PORT (54330),
//   PROFILE_ORDERS (20: orders per kind whose statements are timed one by one),
//   BENCH_TRACE=1: those orders also traced phase by phase in the server (bench/trace-requests.ts)
//   BENCH_CPU_PROFILE=<file> (or --cpu-profile=<file>): the last round's visitor orders profiled in the server
//     (bench/cpu-window.ts), written there; BENCH_CPU_PROFILE_KIND=wallet (or --cpu-profile-kind=wallet) profiles the
//     wallet orders instead; bench/profile-groups.ts summarises the file
//   BENCH_CLIENT=fetch: the orders sent with fetch (undici), as before; by default with node:http's request on a
//     keep-alive agent, the answer decompressed at once (the same bytes either way: Accept-Encoding gzip, deflate),
//     since fetch's own CPU, about 0.7 ms more per request than node:http's, sits on every request's path
//   BENCH_WAL=1: the cluster's WAL flushes (fsyncs, every process: backends and the WAL writer) per order of each kind,
//     from pg_stat_io around each kind's run (each read waits 11 s for idle backends to report; the bench's own
//     DELETE of the rate limits before a run adds at most one flush per run)
//   BENCH_BUSY=<n>, BENCH_BUSY_DUTY=<percent> (bench/busy-load.ts): n processes keep a CPU busy that share of each 10 ms
//     through the timed rounds (the bare server's too), a slower host on demand; `taskset -c 0 node bench/orders.ts`
//     puts the bench, the server and PostgreSQL on one core instead
//   BENCH_PG_STATEMENTS=1: PostgreSQL's own time per statement (pg_stat_statements, planning included) over the profiled
//     orders of each kind; the cluster is started with the extension preloaded (slower: leave it off for timed runs)
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import pg from 'pg'
import { busyLoad } from './busy-load.ts'
import { BENCH_DB_URL, BENCH_ENV, benchResellerKey, postgresCpu, processCpuSeconds, ROOT, startChild, stopChild } from './lib.ts'
import { phaseTable } from './trace-phases.ts'
import { postgresSwitches, type Switches, switchesSince, threadSwitches } from './wakeups.ts'

const perRound = Number(process.env.BENCH_ORDERS ?? 200)
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3))
const warmupRounds = Math.max(0, Number(process.env.BENCH_WARMUP ?? 0))
const WARM_UP = 'warm-up'
const PORT = process.env.BENCH_PORT ?? '3100'
const BARE_PORT = String(Number(PORT) + 1)
const base = `http://127.0.0.1:${PORT}`
const statementLog = path.join(ROOT, '.data/bench-statements.log')
// The log is on only for the profiled orders at the end: the timed rounds run without its cost.
const statementGate = `${statementLog}.on`
const traceFile = process.env.BENCH_TRACE === '1' ? path.join(ROOT, '.data/bench-trace.jsonl') : null
const traceImport = traceFile ? ' --import ./bench/trace-requests.ts' : ''
const option = (name: string) =>
  process.argv
    .slice(2)
    .find((a) => a.startsWith(`--${name}=`))
    ?.slice(name.length + 3)
const profileFile = option('cpu-profile') ?? process.env.BENCH_CPU_PROFILE
const cpuProfile = profileFile ? path.resolve(profileFile) : null
const profileImport = cpuProfile ? ' --import ./bench/cpu-window.ts' : ''
const loadavg = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')
console.log(
  `Data Hub order placement benchmark: ${rounds} rounds of ${perRound} orders in a row per kind (after ${warmupRounds} not counted), node ${process.version}, ${new Date().toISOString()}, load ${loadavg()}, client ${process.env.BENCH_CLIENT === 'fetch' ? 'fetch' : 'node:http'}`
)

const pgStatements = process.env.BENCH_PG_STATEMENTS === '1'
// postgresql.auto.conf is the cluster's own (ALTER SYSTEM's file): the extension is preloaded only for this run.
const autoConf = path.join(BENCH_ENV.DATA_DIR, 'pg', 'postgresql.auto.conf')
const PRELOAD = "\nshared_preload_libraries = 'pg_stat_statements'\npg_stat_statements.track_planning = on\ntrack_functions = 'pl'\n"
if (fs.existsSync(autoConf)) fs.writeFileSync(autoConf, fs.readFileSync(autoConf, 'utf8').replace(PRELOAD, '') + (pgStatements ? PRELOAD : ''))
fs.rmSync(statementLog, { force: true })
fs.rmSync(statementGate, { force: true })
if (traceFile) fs.rmSync(traceFile, { force: true })
const server = await startChild(
  'main.ts',
  {
    ...BENCH_ENV,
    PORT,
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ./bench/statement-log.ts${traceImport}${profileImport}`,
    STATEMENT_LOG: statementLog,
    STATEMENT_LOG_GATE: statementGate,
    ...(cpuProfile ? { CPU_WINDOW_FILE: cpuProfile } : {}),
    ...(traceFile ? { TRACE_REQUESTS: traceFile } : {})
  },
  `${base}/readyz`
)
const db = new pg.Client({ connectionString: BENCH_DB_URL })
await db.connect()
if (pgStatements) await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')

const apiKey = await benchResellerKey(db, base)
const [pkg] = (await (await fetch(`${base}/api/packages`)).json()) as { id: number; network: string }[]

type Answer = { status: number; text(): Promise<string> }
const CLIENT = process.env.BENCH_CLIENT === 'fetch' ? 'fetch' : 'node:http'
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
/** A POST and its whole answer, by the client BENCH_CLIENT names. */
function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  if (CLIENT === 'fetch') return fetch(url, { method: 'POST', headers, body })
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'accept-encoding': 'gzip, deflate', ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const raw = Buffer.concat(chunks)
          const enc = res.headers['content-encoding']
          const text = (enc === 'gzip' ? zlib.gunzipSync(raw) : enc === 'deflate' ? zlib.inflateSync(raw) : raw).toString()
          resolve({ status: res.statusCode ?? 0, text: async () => text })
        })
      }
    )
    req.on('error', reject)
    req.end(body)
  })
}

let n = 0
const phone = () => `024${String(1_000_000 + (n++ % 8_000_000)).padStart(7, '0')}`
const kinds: Record<string, () => Promise<Answer>> = {
  'visitor order + mobile-money prompt (POST /api/orders)': () => {
    const p = phone()
    return post(
      `${base}/api/orders`,
      { 'content-type': 'application/json' },
      JSON.stringify({ packageId: pkg!.id, recipientNumber: p, payerPhone: p, payerNetwork: 'MTN' })
    )
  },
  'wallet order over the reseller API (POST /api/v1/orders)': () =>
    post(
      `${base}/api/v1/orders`,
      { 'content-type': 'application/json', authorization: `Bearer ${apiKey}`, 'idempotency-key': randomUUID() },
      JSON.stringify({ packageId: pkg!.id, recipientNumber: phone() })
    )
}
// The bare server answers each kind's JSON (a 201 the size of the app's) the same way: a request, its answer, the next.
const sample: Record<string, string> = {}
for (const [name, place] of Object.entries(kinds)) {
  const r = await place()
  if (r.status !== 201) throw new Error(`${name}: ${r.status} ${await r.text()}`)
  sample[name] = await r.text()
}
const bare = await startChild('bench/bare-http.ts', { PORT: BARE_PORT, BENCH_BODY: sample[Object.keys(kinds)[0]!]! }, `http://127.0.0.1:${BARE_PORT}/`)
const bareKind = () => post(`http://127.0.0.1:${BARE_PORT}/orders`, { 'content-type': 'application/json' }, '{"packageId":1}')

// The bench's own CPU per request (this process: fetch sending the request and reading its answer), which sits on
// every request's path as much as the server's does; the bare server's requests show what that leaves for a server.
const clientCpu: Record<string, { us: number; n: number }> = {}
async function inARow(place: () => Promise<Answer>, name = ''): Promise<number[]> {
  // Rate limits are per address and phone: a bench from one address would meet them, not the code.
  await db.query('DELETE FROM rate_limiter_flexible; DELETE FROM rate_limits')
  const ms: number[] = []
  const cpu0 = process.cpuUsage()
  const c = (clientCpu[name] ??= { us: 0, n: 0 })
  for (let i = 0; i < perRound; i++) {
    const t = process.hrtime.bigint()
    const r = await place()
    const body = await r.text()
    ms.push(Number(process.hrtime.bigint() - t) / 1e6)
    if (r.status >= 300) throw new Error(`order ${i + 1} answered ${r.status} ${body.slice(0, 200)}`)
  }
  const used = process.cpuUsage(cpu0)
  c.us += used.user + used.system
  c.n += perRound
  return ms
}
const all: Record<string, number[]> = {}
const BARE = 'bare node:http, same JSON'
// CPU per order of the app (the server's process, all its threads) and of PostgreSQL's client backends,
// from /proc around each kind's run: unlike the latencies, it does not swing with what else loads the machine.
const cpu: Record<string, { app: number; appKernel: number; db: number; fsyncs: number; threads: Record<string, number> }> = {}
/**
 * The server's CPU seconds by thread name (/proc/<pid>/task): its JavaScript on MainThread, V8's compiler and
 * garbage-collector helpers on V8Worker, libuv's pool (zlib streams, crypto, DNS) on libuv-worker.
 */
function threadSeconds(pid: number): Record<string, number> {
  const out: Record<string, number> = {}
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    let stat: string
    try {
      stat = fs.readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8')
    } catch {
      continue // a thread that ended between the listing and the read
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    out[name] = (out[name] ?? 0) + (Number(f[11]) + Number(f[12])) / 100
  }
  return out
}
/** The server's CPU seconds in the kernel (stime): its socket writes and reads, wake-ups and polls, apart from its JavaScript. */
const kernelSeconds = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[12]) / 100
const pgDir = path.join(BENCH_ENV.DATA_DIR, 'pg')
const WAL = process.env.BENCH_WAL === '1'
/** The cluster's WAL fsyncs so far, once every backend has reported (an idle one does within 10 s). */
async function walFsyncs(): Promise<number> {
  await new Promise((r) => setTimeout(r, 11_000))
  const { rows } = await db.query<{ f: string }>(`SELECT coalesce(sum(fsyncs), 0) AS f FROM pg_stat_io WHERE object = 'wal'`)
  return Number(rows[0]!.f)
}
// Context switches per order by thread and PostgreSQL process (bench/wakeups.ts), around each kind's run like the CPU.
const wakeups: Record<string, Switches> = {}
const cpuOf = (name: string, run: () => Promise<number[]>) => async () => {
  const wal0 = WAL ? await walFsyncs() : 0
  const app0 = processCpuSeconds(server.pid!)
  const kernel0 = kernelSeconds(server.pid!)
  const db0 = postgresCpu(pgDir).backends
  const threads0 = threadSeconds(server.pid!)
  const sw0 = { ...threadSwitches(server.pid!), ...postgresSwitches(pgDir) }
  const ms = await run()
  for (const [t, d] of Object.entries(switchesSince(sw0, { ...threadSwitches(server.pid!), ...postgresSwitches(pgDir) }))) {
    const o = ((wakeups[name] ??= {})[t] ??= { voluntary: 0, involuntary: 0 })
    o.voluntary += d.voluntary
    o.involuntary += d.involuntary
  }
  const c = (cpu[name] ??= { app: 0, appKernel: 0, db: 0, fsyncs: 0, threads: {} })
  for (const [t, s] of Object.entries(threadSeconds(server.pid!))) c.threads[t] = (c.threads[t] ?? 0) + s - (threads0[t] ?? 0)
  c.app += processCpuSeconds(server.pid!) - app0
  c.appKernel += kernelSeconds(server.pid!) - kernel0
  c.db += postgresCpu(pgDir).backends - db0
  if (WAL) c.fsyncs += (await walFsyncs()) - wal0
  return ms
}
/** Sends SIGUSR2 to the server (bench/cpu-window.ts) and waits until `file` exists. */
async function profilerSignal(file: string) {
  fs.rmSync(file, { force: true })
  server.kill('SIGUSR2')
  while (!fs.existsSync(file)) await new Promise((r) => setTimeout(r, 20))
}
let bareCpu = 0
const VISITOR = Object.keys(kinds)[0]!
const PROFILED_KIND = (option('cpu-profile-kind') ?? process.env.BENCH_CPU_PROFILE_KIND) === 'wallet' ? Object.keys(kinds)[1]! : VISITOR
// BENCH_WARMUP rounds (0 by default, as before) run first and are not counted: in the counted rounds of a fresh server,
// V8 is still compiling the order's code (its compiler threads are part of the app's CPU), as a server running for a
// while no longer is.
const busy = busyLoad()
console.log(`rounds under ${busy.label}, ${os.availableParallelism()} CPUs usable, load ${loadavg()}`)
for (let round = 0; round < warmupRounds; round++) for (const place of Object.values(kinds)) await inARow(place, WARM_UP)
delete clientCpu[WARM_UP]
for (let round = 0; round < rounds; round++) {
  for (const [name, place] of Object.entries(kinds)) {
    // The profile's orders are left out of the CPU per order: the profiler costs CPU of its own.
    const profiled = cpuProfile && round === rounds - 1 && name === PROFILED_KIND
    if (profiled) await profilerSignal(`${cpuProfile}.on`)
    ;(all[name] ??= []).push(...(await (profiled ? inARow(place, name) : cpuOf(name, () => inARow(place, name))())))
    if (profiled) await profilerSignal(cpuProfile)
  }
  // The bare server's own CPU per request: node's floor for taking a request and sending such an answer.
  const bare0 = processCpuSeconds(bare.pid!)
  ;(all[BARE] ??= []).push(...(await inARow(bareKind, BARE)))
  bareCpu += processCpuSeconds(bare.pid!) - bare0
}
await busy.stop()
const roundsLoad = loadavg()
// Statements per order, and where an order's time goes: PROFILE_ORDERS (20) orders of each kind, one
// at a time, each statement's time from send to answer as the log has it (bench/statement-log.ts),
// the mean per statement next to the mean request. The pool's liveness probe (SELECT 1) is left out.
const profiled = Math.max(1, Number(process.env.PROFILE_ORDERS ?? 20))
const statements: Record<string, number> = {}
const profiles: string[] = []
const logLines = () => (fs.existsSync(statementLog) ? fs.readFileSync(statementLog, 'utf8').split('\n').filter(Boolean) : [])
fs.writeFileSync(statementGate, '')
await new Promise((r) => setTimeout(r, 100))
const pgTimes: string[] = []
for (const [name, place] of Object.entries(kinds)) {
  const perStatement: { text: string; ms: number[] }[] = []
  const requestMs: number[] = []
  if (pgStatements) await db.query('SELECT pg_stat_statements_reset(), pg_stat_reset()')
  for (let i = 0; i < profiled; i++) {
    await new Promise((r) => setTimeout(r, 100))
    const before = logLines().length
    const t = process.hrtime.bigint()
    await (await place()).text()
    requestMs.push(Number(process.hrtime.bigint() - t) / 1e6)
    await new Promise((r) => setTimeout(r, 100))
    const lines = logLines()
      .slice(before)
      .map((l) => l.split(' '))
      .filter((f) => f.slice(3).join(' ') !== 'SELECT 1')
    statements[name] = lines.length
    // Grouped by the statement's start (its literals differ from order to order), in the order first sent.
    for (const f of lines) {
      const text = f.slice(3).join(' ').slice(0, 90)
      let s = perStatement.find((x) => x.text.slice(0, 50) === text.slice(0, 50))
      if (!s) perStatement.push((s = { text, ms: [] }))
      s.ms.push(Number(f[2]))
    }
  }
  if (pgStatements) {
    // Per order: PostgreSQL's planning and execution time of each statement (triggers and CTEs included), the bench's own left out.
    const { rows } = await db.query(
      `SELECT calls, plans, total_plan_time AS plan, total_exec_time AS exec, shared_blks_hit + shared_blks_read AS blks, wal_records, wal_bytes, query
         FROM pg_stat_statements WHERE query NOT LIKE '%pg_stat_statements%' ORDER BY total_plan_time + total_exec_time DESC`
    )
    // Buffers and WAL per order do not swing with the machine's load, as the times do.
    pgTimes.push(
      `${name}: PostgreSQL's time per order (pg_stat_statements, ${profiled} orders): plan + execute ms, buffers, WAL records, WAL bytes, calls, plans (fewer than calls: a cached generic plan ran), statement`
    )
    for (const r of rows)
      pgTimes.push(
        `  ${(r.plan / profiled).toFixed(3).padStart(7)} + ${(r.exec / profiled).toFixed(3).padStart(7)}  ${String(Math.round(r.blks / profiled)).padStart(5)}  ${(Number(r.wal_records) / profiled).toFixed(1).padStart(5)}  ${String(Math.round(Number(r.wal_bytes) / profiled)).padStart(6)}  ${`${r.calls}`.padStart(4)}  ${`${r.plans}`.padStart(4)}  ${String(r.query).replace(/\s+/g, ' ').slice(0, 110)}`
      )
    // The plpgsql functions (triggers and graphile_worker's add_job) inside those statements, by their own time.
    // The backends hand their function counts to the statistics at most once a second.
    await new Promise((r) => setTimeout(r, 1500))
    const fns = await db.query(
      `SELECT schemaname || '.' || funcname AS fn, calls, self_time, total_time FROM pg_stat_user_functions WHERE calls > 0 ORDER BY total_time DESC LIMIT 12`
    )
    for (const f of fns.rows)
      pgTimes.push(
        `  function ${f.fn}: ${(f.calls / profiled).toFixed(2)} calls, ${(f.total_time / profiled).toFixed(3)} ms (self ${(f.self_time / profiled).toFixed(3)}) per order`
      )
    const plan = rows.reduce((a, r) => a + r.plan, 0) / profiled
    const exec = rows.reduce((a, r) => a + r.exec, 0) / profiled
    const per = (k: string) => rows.reduce((a, r) => a + Number(r[k]), 0) / profiled
    pgTimes.push(
      `  ${plan.toFixed(3).padStart(7)} + ${exec.toFixed(3).padStart(7)}  ${String(Math.round(per('blks'))).padStart(5)}  ${per('wal_records').toFixed(1).padStart(5)}  ${String(Math.round(per('wal_bytes'))).padStart(6)}  in all`
    )
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  const inDb = sum(perStatement.map((s) => sum(s.ms))) / profiled
  profiles.push(`${name}: ${profiled} orders, mean request ${(sum(requestMs) / profiled).toFixed(1)} ms, of which waiting on statements ${inDb.toFixed(1)} ms`)
  // Per order: the statement's mean time, and how many of the orders sent it (more than once: x/n above n).
  for (const s of perStatement)
    profiles.push(`  ${(sum(s.ms) / s.ms.length).toFixed(1).padStart(6)} ms  ${`${s.ms.length}/${profiled}`.padStart(5)}  ${s.text}`)
}
agent.destroy()
await stopChild(bare)
await db.end()
await stopChild(server)

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!
console.log('')
for (const [name, ms] of Object.entries(all)) {
  const s = statements[name] !== undefined ? `   ${statements[name]} statements per order` : ''
  console.log(`${name.padEnd(60)} p50 ${pct(ms, 50).toFixed(1).padStart(6)} ms   p99 ${pct(ms, 99).toFixed(1).padStart(6)} ms   (${ms.length} requests)${s}`)
}
// Where the tail sits: a slow first request of a round is the server still compiling that path, one mid-round is not.
for (const [name, ms] of Object.entries(all)) {
  const slowest = ms
    .map((t, i) => ({ t, round: Math.floor(i / perRound) + 1, at: (i % perRound) + 1 }))
    .sort((a, b) => b.t - a.t)
    .slice(0, 4)
  console.log(`${name.padEnd(60)} slowest: ${slowest.map((x) => `${x.t.toFixed(1)} ms (round ${x.round}, #${x.at})`).join(', ')}`)
}
console.log('')
for (const [name, c] of Object.entries(cpu)) {
  const n = all[name]!.length - (cpuProfile && name === PROFILED_KIND ? perRound : 0)
  const wal = WAL ? `, WAL flushes ${(c.fsyncs / n).toFixed(2)}` : ''
  console.log(
    `${name.padEnd(60)} CPU per order: app ${((c.app * 1000) / n).toFixed(2)} ms (kernel ${((c.appKernel * 1000) / n).toFixed(2)}), PostgreSQL backends ${((c.db * 1000) / n).toFixed(2)} ms${wal}`
  )
  const byThread = Object.entries(c.threads)
    .filter(([, s]) => s > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([t, s]) => `${t} ${((s * 1000) / n).toFixed(2)}`)
  console.log(`${''.padEnd(60)}   the app's by thread (ms per order): ${byThread.join(', ')}`)
  const sw = Object.entries(wakeups[name] ?? {})
    .filter(([, d]) => d.voluntary + d.involuntary > 0)
    .sort((a, b) => b[1].voluntary + b[1].involuntary - a[1].voluntary - a[1].involuntary)
    .map(([t, d]) => `${t} ${(d.voluntary / n).toFixed(2)}+${(d.involuntary / n).toFixed(2)}`)
  console.log(`${''.padEnd(60)}   context switches per order, voluntary+involuntary: ${sw.join(', ')}`)
}
console.log(`${BARE.padEnd(60)} CPU per request: ${((bareCpu * 1000) / all[BARE]!.length).toFixed(2)} ms`)
for (const [name, c] of Object.entries(clientCpu))
  console.log(`${name.padEnd(60)} the bench client's own CPU per request: ${(c.us / 1000 / c.n).toFixed(2)} ms`)
console.log('')
for (const line of profiles) console.log(line)
for (const line of pgTimes) console.log(line)
if (traceFile) for (const prefix of ['POST /api/orders', 'POST /api/v1/orders']) console.log(['', ...phaseTable(traceFile, prefix, profiled)].join('\n'))
for (const name of Object.keys(kinds)) console.log(`ratio p50 ${name} / bare: ${(pct(all[name]!, 50) / pct(all[BARE]!, 50)).toFixed(1)}x`)
console.log(`load average at the end of the rounds: ${roundsLoad}, at the end: ${loadavg()}`)
