import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { QueryTypes } from 'sequelize'
import { connect, type Database } from '../../models/db.ts'
import { ClusterDirError, freePort, resolveClusterDir, startEmbedded, type EmbeddedHandle } from '../../models/embedded.ts'
import { seedDefaults } from '../../server/services/seed/index.ts'
import { loadEnv, type Env } from '../../server/env.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'

export const ADMIN = { email: 'admin@test.local', password: 'admin-pass-123' }

let running: Running | undefined
let embedded: EmbeddedHandle | undefined
let clusterDir: string | undefined
let envUsed: Env | undefined

/** Extra environment for the test app (fake gateway URLs and the like), set before the first start. */
export const testEnvOverrides: Partial<Env> = {}

/**
 * A throw-away cluster folder under .data/test-runs; should the checkout sit where the postgres
 * user cannot enter (a clone under /root), a fresh temporary folder instead: tests only, never the shop.
 */
export function testClusterDir(name: string): string {
  const base = path.resolve('.data/test-runs')
  fs.mkdirSync(base, { recursive: true })
  try {
    return resolveClusterDir(base, name)
  } catch (err) {
    if (!(err instanceof ClusterDirError)) throw err
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'datahub-test-'))
    fs.chmodSync(tmp, 0o755)
    return path.join(tmp, name)
  }
}

/**
 * One app per test process, on its own throw-away PostgreSQL cluster (or TEST_DATABASE_URL), so
 * several test runs can go at once. Started by the root hook; tests call app().
 */
export async function startTestApp(): Promise<Running> {
  if (running) return running
  const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent')
  let url = process.env.TEST_DATABASE_URL
  if (!url) {
    clusterDir = testClusterDir(`run-${process.pid}-${Date.now()}`)
    embedded = await startEmbedded({ dir: clusterDir, port: await freePort(), database: 'datahub_test', persistent: false, durable: false })
    url = embedded.url
  }
  const env = loadEnv(
    {
      ...process.env,
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: url,
      DATA_DIR: path.join(os.tmpdir(), 'datahub-test'),
      JOBS_ENABLED: '0',
      DELIVERY_SIMULATOR_DELAY_MS: '0',
      DELIVERY_RETRY_BASE_MS: '0',
      SMS_RETRY_BASE_MS: '0',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-000'
    },
    testEnvOverrides
  )
  envUsed = env
  const { sequelize, models } = connect(url)
  const db: Database = { sequelize, models, url, close: async () => sequelize.close() }
  running = await boot({ env, log, db, dev: false })
  return running
}

export async function stopTestApp(): Promise<void> {
  await running?.stop()
  running = undefined
  await embedded?.stop()
  if (clusterDir) fs.rmSync(clusterDir, { recursive: true, force: true })
}

export function app(): Running {
  if (!running) throw new Error('test app not started (the root hook starts it)')
  return running
}

export const testEnv = (): Env => envUsed!

/**
 * Empties every table, then seeds the defaults again (settings, sample packages, the admin), and sets the simulators
 * (delivery vendor, transfers) back as at start: their modes, counts and answered keys live in the process, and would
 * fail, or answer from memory, the next file's orders and payouts. The settings are dropped here; the other caches of
 * rows (packages, shops, checkers, signed-in pages and sessions) by the tables' TRUNCATE notices; rate limits and USSD
 * sessions are rows themselves.
 */
export async function resetDb(): Promise<void> {
  const { services, db } = app()
  const tables = await db.sequelize.query<{ tablename: string }>(
    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
    { type: QueryTypes.SELECT }
  )
  await db.sequelize.query(`TRUNCATE ${tables.map((t) => `"${t.tablename}"`).join(', ')} RESTART IDENTITY CASCADE`)
  await db.sequelize.query('TRUNCATE graphile_worker._private_jobs, graphile_worker._private_job_queues, graphile_worker._private_known_crontabs CASCADE')
  services.settings.invalidate()
  await seedDefaults(db.models, services, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, log: createLogger('silent') })
  services.delivery.vendors.simulator.reset()
  services.payouts.simulatorReset()
}
