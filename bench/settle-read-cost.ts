// The app's CPU per statement of the webhook's payment read (ADR 0096) with the whole row (`PAYMENT_WITH_TEXT_ORDER`) or
// only what `settle` decides from (`SETTLE_BEFORE_WITH_TEXT_ORDER`), in alternating blocks on one instance and one
// database, and the bytes each returns (its columns' text and its row description).
//   BENCH_PORT=4662 BENCH_PG_PORT=54662 BENCH_DATA_DIR=.data-bench-x node bench/settle-read-cost.ts [--n=20000] [--blocks=6]
// Needs paid payments in its database (a `bench/fulfilment.ts` run on the same BENCH_DATA_DIR leaves 300).
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { boot } from '../main.ts'
import { preparedFor } from '../models/prepared.ts'
import { loadEnv } from '../server/env.ts'
import { createLogger } from '../server/lib/logger.ts'
import { PAYMENT_WITH_TEXT_ORDER, SETTLE_BEFORE_WITH_TEXT_ORDER } from '../server/services/payments/queries-settle.ts'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const N = arg('n', 20_000)
const BLOCKS = arg('blocks', 6)

const env = loadEnv({
  ...process.env,
  NODE_ENV: 'production',
  PORT: process.env.BENCH_PORT ?? '4662',
  HOST: '127.0.0.1',
  DATA_DIR: path.resolve(process.env.BENCH_DATA_DIR ?? '.data/bench-fulfilment'),
  EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? '54662',
  JOBS_ENABLED: '0',
  LOG_LEVEL: 'error',
  ADMIN_EMAIL: 'bench-fulfilment@datahub.local',
  ADMIN_PASSWORD: 'bench-fulfilment-password',
  SESSION_SECRET: 'bench-fulfilment-session-secret-0000000000'
})
const running = await boot({ env, log: createLogger('error') })
const { sequelize } = running.db
const run = preparedFor(sequelize)
const refs = (
  await sequelize.query<{ t: string }>(`SELECT transaction_id AS t FROM payments WHERE order_id IS NOT NULL ORDER BY id LIMIT 300`, { type: QueryTypes.SELECT })
).map((r) => r.t)
if (!refs.length) throw new Error('no payments: run bench/fulfilment.ts on this BENCH_DATA_DIR first')

const full = `SELECT ${PAYMENT_WITH_TEXT_ORDER} FROM payments WHERE transaction_id = $1`
const trimmed = `SELECT ${SETTLE_BEFORE_WITH_TEXT_ORDER} FROM payments WHERE transaction_id = $1`

// Bytes a row comes back in: each column's text (DataRow) and the row description pg is sent with each execution.
for (const [name, text] of [
  ['whole row', full],
  ['trimmed', trimmed]
] as const) {
  const [b] = await sequelize.query<{ data: string; fields: string }>(
    `SELECT avg((SELECT sum(4 + coalesce(octet_length(v), 0)) FROM jsonb_each_text(to_jsonb(x)) AS e(k, v)))::int AS data,
            (SELECT sum(length(k) + 19) FROM jsonb_object_keys((SELECT to_jsonb(y) FROM (${text.replace('$1', `'${refs[0]}'`)}) y)) AS k) AS fields
       FROM (${text.replace('= $1', 'IN (:refs)')}) x`,
    { type: QueryTypes.SELECT, replacements: { refs } }
  )
  console.log(`${name}: ${b!.data} bytes of column data, ${b!.fields} bytes of row description per read`)
}

async function block(f: (i: number) => Promise<unknown>): Promise<number> {
  const cpu0 = process.cpuUsage()
  for (let i = 0; i < N; i++) await f(i)
  const c = process.cpuUsage(cpu0)
  return (c.user + c.system) / N
}

const cases: Record<string, (i: number) => Promise<unknown>> = {
  'read, whole row': (i) => run(full, [refs[i % refs.length]]),
  'read, trimmed': (i) => run(trimmed, [refs[i % refs.length]])
}
for (const f of Object.values(cases)) await block(f) // warm: plans, JIT
const got: Record<string, number[]> = {}
for (let b = 0; b < BLOCKS; b++) for (const [name, f] of Object.entries(cases)) (got[name] ??= []).push(await block(f))
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
for (const [name, xs] of Object.entries(got))
  console.log(`${name}: app CPU ${med(xs).toFixed(1)} us per statement (median of ${BLOCKS} blocks of ${N}; ${xs.map((x) => x.toFixed(1)).join(', ')})`)
await running.stop()
process.exit(0)
