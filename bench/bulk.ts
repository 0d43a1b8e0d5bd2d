// Bulk orders (ADR 0039): preview and acceptance time for one batch, then its lines to DELIVERED.
//
//   node_modules/.bin/node bench/bulk.ts [--lines=1000] [--concurrency=8]
//
// One app instance in this process (production build, workers on, own embedded PostgreSQL under
// .data/bench-bulk on port 4132, HTTP on 4131; BENCH_DATA_DIR, BENCH_PG_PORT and BENCH_PORT move them).
// An approved agent with enough wallet balance checks N pasted lines (the preview, three times), pays
// them as one batch (one debit, N orders settled in one transaction), and the instance's workers
// (--concurrency) deliver them on the delivery simulator. Measured: preview time, acceptance time,
// and orders/s from acceptance to the last DELIVERED. Prints figures; asserts nothing. Results go in
// docs/benchmarks-bulk.md by hand.
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { loadEnv } from '../server/env.ts'
import { boot } from '../main.ts'
import { createLogger } from '../server/lib/logger.ts'

const arg = (name: string, def: number) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def)
const N = arg('lines', 1000)
const CONCURRENCY = arg('concurrency', 8)

const env = loadEnv({
  ...process.env,
  NODE_ENV: 'production',
  PORT: process.env.BENCH_PORT ?? '4131',
  HOST: '127.0.0.1',
  DATA_DIR: path.resolve(process.env.BENCH_DATA_DIR ?? '.data/bench-bulk'),
  EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? '4132',
  JOBS_ENABLED: '1',
  LOG_LEVEL: 'error',
  QUEUE_CONCURRENCY: String(CONCURRENCY),
  QUEUE_POOL_MAX: String(CONCURRENCY + 2),
  DELIVERY_SIMULATOR_DELAY_MS: '0',
  PAYMENT_PROVIDER: 'simulator',
  ADMIN_EMAIL: 'bench-bulk@datahub.local',
  ADMIN_PASSWORD: 'bench-bulk-password',
  SESSION_SECRET: 'bench-bulk-session-secret-00000000000000000'
})
const running = await boot({ env, log: createLogger('error') })
const { sequelize, models } = running.db
const { services } = running
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) => sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const ms = (from: number) => performance.now() - from

try {
  const stamp = Date.now()
  const pkg = await models.Package.create({ network: 'MTN', name: null, sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450, active: true })
  const user = await models.User.create({
    email: `bench-bulk-${stamp}@datahub.local`,
    phone: '0249990000',
    name: 'Bench bulk agent',
    passwordHash: 'not-a-login',
    role: 'AGENT'
  })
  const agent = await models.Agent.create({ userId: user.get('id'), name: 'Bench bulk agent', phone: '0249990000', approved: true, paymentStatus: 'SUCCESS' })
  const admin = await services.auth.loadActor(Number((await q<{ id: number }>(`SELECT id FROM users WHERE role = 'ADMIN' LIMIT 1`))[0]!.id))
  await services.wallet.adjust(Number(agent.get('id')), { amount: N * 4.5, direction: 'CREDIT', reason: 'Bench float' }, { user: admin })
  const actor = (await services.auth.loadActor(Number(user.get('id'))))!
  services.packages.invalidate()
  const text = Array.from({ length: N }, (_, i) => `024${String(stamp % 1000).padStart(3, '0')}${String(i).padStart(4, '0')} 1GB`).join('\n')

  const source = { text, allowDuplicates: false, sms: false, pay: 'wallet' as const }
  const previews: number[] = []
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    const p = await services.bulk.preview(source, { user: actor })
    previews.push(ms(t))
    if (p.refused) throw new Error(`${p.refused} lines refused: ${JSON.stringify(p.lines.find((l) => l.error))}`)
  }
  const t0 = performance.now()
  const { batch } = await services.bulk.accept(source, { user: actor })
  const accepted = ms(t0)
  let delivered = 0
  while (delivered < N) {
    await new Promise((r) => setTimeout(r, 100))
    delivered = (await q<{ n: number }>(`SELECT count(*)::int AS n FROM orders WHERE batch_id = :id AND delivery_status = 'DELIVERED'`, { id: batch.id }))[0]!.n
    if (ms(t0) > 600_000) throw new Error(`only ${delivered} of ${N} delivered after 10 minutes`)
  }
  const all = ms(t0)
  console.log(`bulk order of ${N} lines (package ${pkg.get('id')}, ${CONCURRENCY} workers, simulator vendor without delay)`)
  console.log(`  preview            ${previews.map((p) => `${p.toFixed(0)} ms`).join(', ')} (three runs)`)
  console.log(`  acceptance         ${accepted.toFixed(0)} ms (one debit, ${N} orders and payments settled together in one transaction)`)
  console.log(
    `  to all DELIVERED   ${all.toFixed(0)} ms from acceptance start: ${(N / (all / 1000)).toFixed(1)} orders/s; ${(N / ((all - accepted) / 1000)).toFixed(1)} orders/s after it committed`
  )
} finally {
  await running.stop()
}
