// Baseline: how many times per second the home page renders in-process (no HTTP), on the same build
// and database as the server under test. Prints one JSON line.
import { renderPage } from 'vike/server'
import { connect } from '../models/db.ts'
import { loadEnv } from '../server/env.ts'
import { createLogger } from '../server/lib/logger.ts'
import { createServices } from '../server/services/index.ts'
import { BENCH_DB_URL } from './lib.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const env = loadEnv({ ...process.env, NODE_ENV: 'production', DATABASE_URL: BENCH_DB_URL, SESSION_SECRET: 'bench-render-session-secret-000000000000', PAYMENT_PROVIDER: 'simulator' })
const log = createLogger('warn')
const { sequelize, models } = connect(BENCH_DB_URL)
const services = createServices({ sequelize, models, env, log })
const settings = await services.settings.get()

async function renderOnce() {
  const ctx = await renderPage({
    urlOriginal: '/',
    headersOriginal: { 'user-agent': 'Mozilla/5.0' },
    services,
    user: null,
    settings: services.settings.getPublicSync(settings),
    csrfToken: null,
  })
  const body = await ctx.httpResponse!.getBody()
  if (!body.includes('</html>')) throw new Error('incomplete render')
}

for (let i = 0; i < 50; i++) await renderOnce() // warm-up
let n = 0
const start = performance.now()
while (performance.now() - start < seconds * 1000) {
  await renderOnce()
  n++
}
const elapsed = (performance.now() - start) / 1000
console.log(JSON.stringify({ rendersPerSecond: n / elapsed, renders: n }))
await sequelize.close()
process.exit(0)
