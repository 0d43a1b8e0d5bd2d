// Time to ready of a fresh server: node_modules/.bin/node bench/time-to-ready.ts
//
// In this process: the server's modules imported, then `boot()` with production settings, jobs on, on its own embedded
// PostgreSQL (.data/bench-ready on port 54390; BENCH_DATA_DIR, BENCH_PG_PORT and BENCH_PORT move them), until it
// listens; then, where the build has it, until the pool's connections opened after listening are open
// (`poolOpened`); then stopped. Prints the wall and CPU times as one JSON line. Run it several times,
// alternating with the build it is compared to: a start is one sample, and the first one on a new cluster
// includes its initdb. Asserts nothing.
import path from 'node:path'

const t0 = performance.now()
const { loadEnv } = await import('../server/env.ts')
const { boot } = await import('../main.ts')
const { createLogger } = await import('../server/lib/logger.ts')
const imported = performance.now()
const env = loadEnv({
  ...process.env,
  NODE_ENV: 'production',
  PORT: process.env.BENCH_PORT ?? '3212',
  HOST: '127.0.0.1',
  DATA_DIR: path.resolve(process.env.BENCH_DATA_DIR ?? '.data/bench-ready'),
  EMBEDDED_PG_PORT: process.env.BENCH_PG_PORT ?? '54390',
  JOBS_ENABLED: '1',
  LOG_LEVEL: 'error',
  ADMIN_EMAIL: 'bench-ready@datahub.local',
  ADMIN_PASSWORD: 'bench-ready-password',
  SESSION_SECRET: 'bench-ready-session-secret-000000000000000'
})
const running = await boot({ env, log: createLogger('error') })
const ready = performance.now()
const cpuReady = process.cpuUsage()
// Absent in a build from before it (an older checkout compared against this one).
const opened = await (running as { poolOpened?: Promise<number> }).poolOpened
const poolDone = performance.now()
const cpuOpening = process.cpuUsage(cpuReady)
await running.stop()
const ms = (c: NodeJS.CpuUsage) => Math.round((c.user + c.system) / 1000)
console.log(
  JSON.stringify({
    importMs: Math.round(imported - t0),
    bootMs: Math.round(ready - imported),
    cpuToReadyMs: ms(cpuReady),
    poolOpened: opened ?? null,
    poolOpenedMs: Math.round(poolDone - ready),
    cpuOpeningMs: ms(cpuOpening)
  })
)
process.exit(0)
