// Baseline: how many times per second a page renders in-process (no HTTP), doing the same work as
// the server's page handler for that request: the same pageContext (visitor, public settings, a CSP
// nonce, the bench's request headers), the same streamed response consumed chunk by chunk, and the
// same number of renders in flight as the HTTP load has connections (the server overlaps them too;
// one render at a time left the CPU idle between chunks, so HTTP beat it 1.55x).
// Same build and database as the server under test. BENCH_URL picks the page. Prints one JSON line.
import crypto from 'node:crypto'
import { Writable } from 'node:stream'
import { renderPage } from 'vike/server'
import { connect } from '../models/db.ts'
import { loadEnv } from '../server/env.ts'
import { createLogger } from '../server/lib/logger.ts'
import { createServices } from '../server/services/index.ts'
import { BENCH_DB_URL } from './lib.ts'

const seconds = Number(process.env.BENCH_SECONDS ?? 10)
const inFlight = Number(process.env.BENCH_CONNECTIONS ?? 20)
const url = process.env.BENCH_URL ?? '/'
const env = loadEnv({
  ...process.env,
  NODE_ENV: 'production',
  DATABASE_URL: BENCH_DB_URL,
  SESSION_SECRET: 'bench-render-session-secret-000000000000',
  PAYMENT_PROVIDER: 'simulator'
})
const log = createLogger('warn')
const { sequelize, models } = connect(BENCH_DB_URL)
const services = createServices({ sequelize, models, env, log })
const headers = { 'user-agent': 'Mozilla/5.0', accept: 'text/html', host: '127.0.0.1' }

async function renderOnce() {
  // What server/http/pages.ts does per request: settings (cached), a nonce, the render, the stream.
  const settings = await services.settings.get()
  const ctx = await renderPage({
    urlOriginal: url,
    headersOriginal: headers,
    cspNonce: crypto.randomBytes(16).toString('base64url'),
    services,
    user: null,
    settings: services.settings.getPublicSync(settings),
    csrfToken: null
  })
  const res = ctx.httpResponse
  if (!res || res.statusCode !== 200) throw new Error(`render of ${url} answered ${res?.statusCode}`)
  let bytes = 0
  await new Promise<void>((resolve, reject) => {
    const sink = new Writable({
      write(chunk, _enc, cb) {
        bytes += chunk.length
        cb()
      }
    })
    sink.on('finish', resolve).on('error', reject)
    res.pipe(sink)
  })
  if (bytes < 500) throw new Error('incomplete render')
}

for (let i = 0; i < 50; i++) await renderOnce() // warm-up
let n = 0
const start = performance.now()
const end = start + seconds * 1000
await Promise.all(
  Array.from({ length: inFlight }, async () => {
    while (performance.now() < end) {
      await renderOnce()
      n++
    }
  })
)
const elapsed = (performance.now() - start) / 1000
console.log(JSON.stringify({ url, rendersPerSecond: n / elapsed, renders: n, inFlight }))
await sequelize.close()
process.exit(0)
