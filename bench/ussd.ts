// USSD hop latency: N concurrent dialogues through the real endpoint (Africa's Talking format).
//
//   node_modules/.bin/node bench/ussd.ts [--dialogues=100] [--rounds=3] [--buy=1] [--think=0] [--spread=0] [--password-pin=0]
//
// Each of N simulated agents dials, enters the PIN, picks network, bundle and recipient, and
// (with --buy=1) confirms, which creates the order and asks the payment simulator for the prompt.
// --think=ms waits between hops like a person reading the screen (0 = back to back, the worst case);
// --spread=ms starts the N dialogues at random moments within that window instead of all at once.
// Own server process and embedded database under .data/bench-ussd (needs `npm run build` once).
// Prints figures; asserts nothing. Results go in docs/benchmarks-ussd.md by hand.
import os from 'node:os'
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { connect } from '../models/db.ts'
import { hashPin, hashSecret } from '../server/lib/crypto.ts'
import { postgresCpuSeconds, processCpuSeconds, ROOT, startChild, stopChild } from './lib.ts'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const N = arg('dialogues', 100)
const ROUNDS = arg('rounds', 3)
const BUY = arg('buy', 1) === 1
const THINK = arg('think', 0)
const SPREAD = arg('spread', 0)
// --password-pin=1: PIN hashes made with the password settings (hashSecret) instead of the PIN
// settings (hashPin, what a PIN reset stores), to compare (verification reads them from the hash).
const PASSWORD_PIN = arg('password-pin', 0) === 1
// --pg-stats: PostgreSQL's time per statement shape over the timed rounds (pg_stat_statements; the
// cluster must preload it, see docs/benchmarks-fulfilment.md), to see what each hop sends.
const PG_STATS = process.argv.includes('--pg-stats')
const PIN = '4826'
// BENCH_PORT / BENCH_PG_PORT: another free port pair when several benches share the machine.
const PORT = process.env.BENCH_PORT ?? '3141'
const PG_PORT = process.env.BENCH_PG_PORT ?? '54341'

// The server runs in its own process (production build, own embedded database), so the client's
// 100 sockets do not share its event loop; this process sets up data over a database connection.
const server = await startChild(
  'main.ts',
  // BENCH_SERVER_NODE_OPTIONS=--cpu-prof profiles the server alone.
  {
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
    NODE_ENV: 'production',
    PORT,
    HOST: '127.0.0.1',
    DATA_DIR: path.join(ROOT, '.data/bench-ussd'),
    EMBEDDED_PG_PORT: PG_PORT,
    JOBS_ENABLED: '0',
    LOG_LEVEL: 'error',
    ADMIN_EMAIL: 'bench-ussd@datahub.local',
    ADMIN_PASSWORD: 'bench-ussd-password',
    SESSION_SECRET: process.env.SESSION_SECRET ?? 'bench-ussd-session-secret-0123456789abcdef'
  },
  `http://127.0.0.1:${PORT}/readyz`
)
const { sequelize, models } = connect(`postgres://datahub:datahub-local@127.0.0.1:${PG_PORT}/datahub`, undefined, {
  poolMax: Number(process.env.DB_POOL_MAX ?? 10)
})
const endpoint = `http://127.0.0.1:${PORT}/ussd/africastalking`

// A fresh cast: N approved, paid agents with one PIN hash (hashing once keeps set-up quick), 6 MTN bundles.
await sequelize.query('TRUNCATE ussd_sessions, payments, orders, commissions, audit_logs, sms_outbox RESTART IDENTITY CASCADE')
await sequelize.query("DELETE FROM users WHERE email LIKE 'bench-ussd-agent-%'")
await sequelize.query(`UPDATE settings SET data = data || '{"ussdWhitelistEnabled": false, "platformOpen": true}'::jsonb`)
const pinHash = PASSWORD_PIN ? await hashSecret(PIN) : await hashPin(PIN)
const phones: string[] = []
for (let i = 0; i < N; i++) {
  const phone = `024${String(7_000_000 + i).padStart(7, '0')}`
  const user = await models.User.create({ email: `bench-ussd-agent-${i}@datahub.local`, passwordHash: pinHash, role: 'AGENT', name: `Bench Agent ${i}`, phone })
  await models.Agent.create({ userId: user.get('id'), name: `Bench Agent ${i}`, phone, approved: true, paymentStatus: 'SUCCESS', pinHash })
  phones.push(phone)
}
await models.Package.destroy({ where: {} })
for (const gb of [1, 2, 3, 5, 10, 20])
  await models.Package.create({ network: 'MTN', sizeMb: gb * 1024, priceUserPesewas: gb * 500, priceAgentPesewas: gb * 450, active: true })

type Kind = 'dial' | 'pin' | 'menu' | 'order'
const times: Record<Kind, number[]> = { dial: [], pin: [], menu: [], order: [] }
let errors = 0

async function hop(sessionId: string, phone: string, inputs: string[], kind: Kind): Promise<string> {
  const t = performance.now()
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      sessionId,
      serviceCode: '*920*44#',
      phoneNumber: `+233${phone.slice(1)}`,
      networkCode: '62001',
      text: inputs.join('*')
    }).toString()
  })
  const body = await res.text()
  times[kind].push(performance.now() - t)
  if (res.status !== 200 || !/^(CON|END) /.test(body) || body.startsWith('END Service')) {
    if (errors++ < 3) console.error(`unexpected reply (${kind}): ${res.status} ${body.slice(0, 120)}`)
  }
  if (THINK) await new Promise((r) => setTimeout(r, THINK))
  return body
}

async function dialogue(i: number, round: number) {
  if (SPREAD && round === 0) await new Promise((r) => setTimeout(r, Math.random() * SPREAD))
  const phone = phones[i]!
  const sid = `bench-${round}-${i}-${Date.now()}`
  const inputs: string[] = []
  const step = async (input: string, kind: Kind) => {
    inputs.push(input)
    return hop(sid, phone, inputs, kind)
  }
  await hop(sid, phone, inputs, 'dial')
  await step(PIN, 'pin')
  await step('1', 'menu') // Buy data
  await step('1', 'menu') // MTN
  await step(String(1 + (i % 5)), 'menu') // a bundle on the first page
  await step('2', 'menu') // another number
  await step(`055${String(1_000_000 + i).slice(-7)}`, 'menu') // recipient
  if (BUY) {
    const end = await step('1', 'order')
    if (!end.startsWith('END Order placed') && errors++ < 3) console.error(`order not placed: ${end.slice(0, 120)}`)
  } else {
    await step('00', 'menu')
    await step('2', 'menu') // last orders
    await step('0', 'menu')
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN
}
const row = (name: string, xs: number[]) =>
  `${name.padEnd(24)} n ${String(xs.length).padStart(5)}   p50 ${pct(xs, 50).toFixed(1).padStart(7)} ms   p99 ${pct(xs, 99).toFixed(1).padStart(7)} ms   max ${Math.max(
    ...xs
  )
    .toFixed(1)
    .padStart(7)} ms`

// Warm-up: one dialogue, not counted.
await dialogue(0, -1)
for (const k of Object.keys(times) as Kind[]) times[k] = []

console.log(
  `USSD benchmark: ${N} concurrent dialogues x ${ROUNDS} rounds, buy=${BUY}, think=${THINK} ms, spread=${SPREAD} ms, PIN hash ${PASSWORD_PIN ? 'password settings' : 'hashPin (m=4MiB,t=1)'}, node ${process.version}, ${os.cpus().length} CPUs, pool max ${process.env.DB_POOL_MAX ?? 10}, ${new Date().toISOString()}`
)
const [{ data_directory: pgDataDir }] = await sequelize.query<{ data_directory: string }>('SHOW data_directory', { type: QueryTypes.SELECT })
const cpu0 = { server: processCpuSeconds(server.pid!), pg: postgresCpuSeconds(pgDataDir) }
const load0 = os.loadavg()
if (PG_STATS) {
  await sequelize.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements')
  await sequelize.query('SELECT pg_stat_statements_reset()')
}
const started = performance.now()
// Each agent dials again as soon as its previous dialogue ends: no barrier between rounds.
await Promise.all(
  Array.from({ length: N }, async (_, i) => {
    for (let r = 0; r < ROUNDS; r++) await dialogue(i, r)
  })
)
const seconds = (performance.now() - started) / 1000
const all = [...times.dial, ...times.pin, ...times.menu, ...times.order]
const notPin = [...times.dial, ...times.menu, ...times.order]

console.log('')
console.log(row('all hops', all))
console.log(row('all hops except PIN', notPin))
console.log(row('  dial (access checks)', times.dial))
console.log(row('  PIN (argon2id verify)', times.pin))
console.log(row('  menu screens', times.menu))
if (BUY) console.log(row('  confirm (order+payment)', times.order))
console.log('')
console.log(`${(all.length / seconds).toFixed(0)} hops/s, ${((N * ROUNDS) / seconds).toFixed(1)} dialogues/s, errors ${errors}`)
// Load-independent: CPU per hop, the server process (all threads, argon2 included) and PostgreSQL.
const serverCpu = processCpuSeconds(server.pid!) - cpu0.server
const pgCpu = postgresCpuSeconds(pgDataDir) - cpu0.pg
const perHop = (s: number) => ((s / all.length) * 1000).toFixed(2)
console.log(
  `CPU per hop: server ${perHop(serverCpu)} ms, PostgreSQL ${perHop(pgCpu)} ms (server ${serverCpu.toFixed(1)} s, PostgreSQL ${pgCpu.toFixed(1)} s over ${all.length} hops)`
)
console.log(
  `load average: ${load0.map((l) => l.toFixed(1)).join(' ')} at the start, ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end`
)
const orders = await models.Order.count({ where: { channel: 'ussd' } })
console.log(`orders created: ${orders}`)

if (PG_STATS) {
  const rows = await sequelize.query<{ calls: string; plan: number; exec: number; query: string }>(
    `SELECT calls, total_plan_time AS plan, total_exec_time AS exec, query FROM pg_stat_statements ORDER BY calls DESC LIMIT 45`,
    { type: QueryTypes.SELECT }
  )
  const dialogues = N * ROUNDS
  console.log(`PostgreSQL statements per dialogue (pg_stat_statements; calls, plan us, exec us per dialogue):`)
  for (const r of rows)
    console.log(
      `  ${(Number(r.calls) / dialogues).toFixed(2).padStart(6)} ${((r.plan * 1000) / dialogues).toFixed(0).padStart(5)} ${((r.exec * 1000) / dialogues).toFixed(0).padStart(6)}  ${r.query.replace(/\s+/g, ' ').slice(0, 120)}`
    )
}
await sequelize.close()
await stopChild(server)
process.exit(0)
