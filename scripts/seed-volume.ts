// Fills a database with back-office volumes: ~1,000,000 orders, 10,000 agents, 100,000 AFA
// registrations spread over 90 days, all generated inside PostgreSQL (INSERT ... SELECT over
// generate_series), so it takes about a minute rather than hours.
//
//   node_modules/.bin/node scripts/seed-volume.ts [--orders=1000000] [--agents=10000] [--afa=100000] [--reset]
//
// It never touches the development data: it uses its own embedded cluster under
// DATA_DIR (default .data/bench-backoffice, port EMBEDDED_PG_PORT default 54331), or DATABASE_URL
// when that is set explicitly for a throw-away database.
import path from 'node:path'
import { QueryTypes, type Sequelize } from 'sequelize'
import { openDatabase, type Database } from '../models/db.ts'
import { migrate } from '../models/migrate.ts'
import { seedDefaults } from '../server/services/seed/index.ts'
import { loadEnv } from '../server/env.ts'
import { hashSecret } from '../server/lib/crypto.ts'
import { createLogger } from '../server/lib/logger.ts'
import { createServices } from '../server/services/index.ts'

export const BENCH_ADMIN = { email: 'bench-admin@datahub.local', password: 'bench-admin-pass-1' }

export async function openBenchDb() {
  const env = loadEnv({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: process.env.DATA_DIR ?? path.resolve('.data/bench-backoffice'),
    EMBEDDED_PG_PORT: process.env.EMBEDDED_PG_PORT ?? '54331',
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    SESSION_SECRET: 'bench-session-secret-that-is-long-enough-0000',
    PAYMENT_PROVIDER: 'simulator',
    JOBS_ENABLED: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    PORT: '0',
    HOST: '127.0.0.1'
  })
  const log = createLogger(env.LOG_LEVEL)
  let db = await openDatabase(env, log)
  if (!env.DATABASE_URL) {
    // The embedded cluster starts with PostgreSQL's 128 MB of shared buffers, less than a million
    // orders and their indexes; any real server for this volume is given more. Once, then restart.
    const [row] = await db.sequelize.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'shared_buffers'", { type: QueryTypes.SELECT })
    if (Number(row?.setting) < 131072) {
      await db.sequelize.query("ALTER SYSTEM SET shared_buffers = '1GB'")
      await db.sequelize.query("ALTER SYSTEM SET max_wal_size = '4GB'")
      await db.close()
      db = await openDatabase(env, log)
    }
  }
  await migrate(db.sequelize, log)
  return { env, log, db }
}

const arg = (name: string, def: number) => {
  const a = process.argv.find((x) => x.startsWith(`--${name}=`))
  return a ? Number(a.split('=')[1]) : def
}

async function count(sequelize: Sequelize, table: string): Promise<number> {
  const [r] = await sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`, { type: QueryTypes.SELECT })
  return Number(r!.n)
}

async function step(label: string, fn: () => Promise<unknown>) {
  const t = performance.now()
  await fn()
  console.log(`  ${label.padEnd(44)} ${((performance.now() - t) / 1000).toFixed(1)} s`)
}

export async function seedVolume(db: Database, opts: { orders: number; agents: number; afa: number; reset: boolean }) {
  const q = (sql: string, replacements: Record<string, unknown> = {}) => db.sequelize.query(sql, { replacements })
  if (opts.reset) {
    await step('truncate', () =>
      q("TRUNCATE orders, agents, afa_registrations, payments, commissions, audit_logs RESTART IDENTITY CASCADE; DELETE FROM users WHERE role <> 'ADMIN'")
    )
  }
  // One real argon2 hash shared by every generated user: they can sign in with 'password-123'.
  const hash = await hashSecret('password-123')

  if ((await count(db.sequelize, 'agents')) < opts.agents) {
    await step(`users + agents (${opts.agents.toLocaleString('en')})`, async () => {
      await q(
        `INSERT INTO users (email, phone, name, password_hash, role, created_at)
         SELECT 'agent' || g || '@bench.local', '02' || lpad(g::text, 8, '0'), 'Agent ' || g, :hash, 'AGENT', now() - random() * interval '120 days'
         FROM generate_series(1, :n) g`,
        { hash, n: opts.agents }
      )
      await q(
        `INSERT INTO agents (user_id, name, phone, approved, payment_status, payment_transaction_id, created_at)
         SELECT u.id,
                (ARRAY['Kofi','Ama','Yaw','Akosua','Kwame','Abena','Kojo','Efua','Kwesi','Adwoa'])[1 + (u.id % 10)] || ' ' ||
                (ARRAY['Mensah','Owusu','Boateng','Asante','Osei','Addo','Appiah','Ofori','Darko','Agyei'])[1 + ((u.id / 10) % 10)] || ' Data ' || u.id,
                u.phone,
                r < 0.80,
                CASE WHEN r < 0.85 THEN 'SUCCESS' WHEN r < 0.90 THEN 'PENDING' WHEN r < 0.95 THEN 'FAILED' ELSE NULL END,
                CASE WHEN r < 0.95 THEN 'agentfee-' || u.id END,
                u.created_at
         FROM (SELECT id, phone, created_at, random() AS r FROM users WHERE role = 'AGENT' AND email LIKE '%@bench.local') u`
      )
      await q(
        `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, payer_phone, agent_id, user_id, created_at, settled_at)
         SELECT a.payment_transaction_id, 'agent_fee', 'simulator', 'momo', a.payment_status, 5000, a.phone, a.id, a.user_id, a.created_at,
                CASE WHEN a.payment_status = 'SUCCESS' THEN a.created_at END
         FROM agents a WHERE a.payment_transaction_id LIKE 'agentfee-%'`
      )
      await q(
        `INSERT INTO users (email, phone, name, password_hash, role, created_at)
         SELECT 'customer' || g || '@bench.local', '05' || lpad(g::text, 8, '0'), 'Customer ' || g, :hash, 'PUBLIC', now() - random() * interval '120 days'
         FROM generate_series(1, :n) g`,
        { hash, n: opts.agents * 2 }
      )
    })
  }

  const have = await count(db.sequelize, 'orders')
  if (have < opts.orders) {
    // Building secondary indexes once afterwards is many times faster than updating them row by row.
    const indexes = await db.sequelize.query<{ name: string; def: string }>(
      `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i JOIN pg_class c ON c.relname = i.indexname JOIN pg_index x ON x.indexrelid = c.oid
       WHERE i.tablename = 'orders' AND NOT x.indisunique`,
      { type: QueryTypes.SELECT }
    )
    // Row triggers (the revenue roll-ups, migration 061) would run once per paid order; they
    // are switched off for the bulk insert and their tables rebuilt from the orders afterwards.
    await q('ALTER TABLE orders DISABLE TRIGGER USER')
    if (opts.orders - have > 100_000) await step(`drop ${indexes.length} secondary indexes`, () => Promise.all(indexes.map((i) => q(`DROP INDEX ${i.name}`))))
    await step(`orders (${(opts.orders - have).toLocaleString('en')})`, async () => {
      const [agentRange] = await db.sequelize.query<{ lo: number; hi: number }>('SELECT min(id) AS lo, max(id) AS hi FROM agents', { type: QueryTypes.SELECT })
      // 30% agent orders; 80% paid. Paid orders older than a day were exported (and so delivered) a few
      // hours after they came in; the last day's are still active, as are unpaid ones of any age.
      // An export leaves the orders row as it was and records itself in order_exports (ADR 0021).
      await q(
        `INSERT INTO orders (user_id, agent_id, package_id, package_name, recipient_number, network, data_size_mb, amount_pesewas,
                             payment_status, payment_transaction_id, payment_phone_number, channel, created_at, updated_at)
         SELECT a.user_id, a.id, NULL, s.name, s.recipient, s.network, s.size_mb, s.amount, s.status, s.txid, s.recipient,
                CASE WHEN s.r3 < 0.1 THEN 'ussd' ELSE 'web' END,
                s.created_at, s.created_at
         FROM (
           SELECT g,
                  (ARRAY['MTN','MTN','MTN','TELECEL','AIRTELTIGO'])[1 + floor(random() * 5)::int] AS network,
                  (ARRAY[1024, 1024, 2048, 3072, 5120, 10240, 512])[1 + floor(random() * 7)::int] AS size_mb,
                  (ARRAY['1GB daily','1GB daily','2GB','3GB weekly','5GB','10GB monthly','500MB'])[1 + (g % 7)] AS name,
                  300 + floor(random() * 5000)::int AS amount,
                  '0' || (ARRAY['24','54','55','59','20','50','26','27','57','53'])[1 + floor(random() * 10)::int] || lpad(floor(random() * 10000000)::int::text, 7, '0') AS recipient,
                  (100000000000000 + :offset + g)::text AS txid,
                  st.status, st.created_at,
                  random() AS r3,
                  CASE WHEN random() < 0.3 THEN :lo + floor(random() * (:hi - :lo + 1))::int END AS agent_pick
           FROM generate_series(1, :n) g
           CROSS JOIN LATERAL (
             SELECT now() - (random() ^ 1.3) * interval '90 days' AS created_at,
                    CASE WHEN x < 0.80 THEN 'SUCCESS' WHEN x < 0.88 THEN 'FAILED' WHEN x < 0.93 THEN 'EXPIRED' WHEN x < 0.98 THEN 'PENDING' ELSE 'IN_PROGRESS' END AS status
             FROM (SELECT random() + g * 0 AS x) z
           ) st
           OFFSET 0 -- keeps the subquery whole: each random() is drawn once per row, and the join below is a plain hash join
         ) s
         LEFT JOIN agents a ON a.id = s.agent_pick`,
        { n: opts.orders - have, offset: have, lo: agentRange!.lo ?? 1, hi: agentRange!.hi ?? 1 }
      )
    })
    await step('order_exports (paid orders older than a day)', () =>
      q(
        `INSERT INTO order_exports (order_id, exported_at)
         SELECT id, created_at + interval '3 hours' FROM orders
         WHERE id > :offset AND payment_status = 'SUCCESS' AND created_at < now() - interval '1 day'`,
        { offset: have }
      )
    )
    // The triggers that keep the export's candidates (ADR 0050) were off too: the paid orders not exported are added here.
    await step('order_export_candidates (paid orders not exported)', () =>
      q(
        `INSERT INTO order_export_candidates (order_id)
         SELECT o.id FROM orders o
         WHERE o.id > :offset AND o.payment_status = 'SUCCESS' AND NOT o.delivered AND o.delivery_status IN ('NOT_STARTED','FAILED')
           AND NOT EXISTS (SELECT 1 FROM order_exports x WHERE x.order_id = o.id)
         ON CONFLICT DO NOTHING`,
        { offset: have }
      )
    )
    await q('ALTER TABLE orders ENABLE TRIGGER USER')
    await step('rebuild revenue roll-ups (if present)', async () => {
      const [r] = await db.sequelize.query<{ daily: string | null; agent: string | null }>(
        "SELECT to_regclass('order_revenue_daily')::text AS daily, to_regclass('order_revenue_by_agent')::text AS agent",
        { type: QueryTypes.SELECT }
      )
      if (r?.daily) {
        await q('DELETE FROM order_revenue_daily')
        await q(`INSERT INTO order_revenue_daily (day, network, revenue, n)
                 SELECT (created_at AT TIME ZONE 'UTC')::date, network, sum(amount_pesewas), count(*) FROM orders WHERE payment_status = 'SUCCESS' GROUP BY 1, 2`)
      }
      if (r?.agent) {
        await q('DELETE FROM order_revenue_by_agent')
        await q(`INSERT INTO order_revenue_by_agent (agent_id, network, revenue, n)
                 SELECT COALESCE(agent_id, 0), network, sum(amount_pesewas), count(*) FROM orders WHERE payment_status = 'SUCCESS' GROUP BY 1, 2`)
      }
    })
    if (opts.orders - have > 100_000) {
      await step('recreate secondary indexes', async () => {
        await q("SET maintenance_work_mem = '512MB'")
        for (const i of indexes) await q(i.def)
      })
    }
  }

  if ((await count(db.sequelize, 'afa_registrations')) < opts.afa) {
    await step(`AFA registrations (${opts.afa.toLocaleString('en')})`, () =>
      q(
        `INSERT INTO afa_registrations (full_name, gh_card, phone, email, amount_pesewas, payment_status, payment_transaction_id, completed, completed_at, created_at, updated_at)
         SELECT (ARRAY['Kofi','Ama','Yaw','Akosua','Kwame','Abena','Kojo','Efua','Kwesi','Adwoa'])[1 + floor(random() * 10)::int] || ' ' ||
                (ARRAY['Mensah','Owusu','Boateng','Asante','Osei','Addo','Appiah','Ofori','Darko','Agyei'])[1 + floor(random() * 10)::int],
                'GHA-' || lpad(g::text, 9, '0') || '-' || (g % 10),
                '0' || (ARRAY['24','54','55','20','50','26','27'])[1 + floor(random() * 7)::int] || lpad(floor(random() * 10000000)::int::text, 7, '0'),
                'afa' || g || '@bench.local', 1000,
                CASE WHEN random() < 0.97 THEN 'SUCCESS' END,
                'afa-' || g,
                c.created_at < now() - interval '3 days', CASE WHEN c.created_at < now() - interval '3 days' THEN c.created_at + interval '1 day' END,
                c.created_at, c.created_at
         FROM generate_series(1, :n) g CROSS JOIN LATERAL (SELECT now() - random() * interval '90 days' + g * interval '0' AS created_at) c`,
        { n: opts.afa }
      )
    )
  }
  // Fresh statistics and visibility map: the planner's estimates and index-only scans depend on them.
  await step('VACUUM ANALYZE', () => q('VACUUM ANALYZE'))
  const [sizes] = await db.sequelize.query<Record<string, string>>(
    `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM orders_view WHERE NOT exported) AS active,
            (SELECT count(*) FROM agents) AS agents, (SELECT count(*) FROM afa_registrations) AS afa,
            pg_size_pretty(pg_database_size(current_database())) AS size`,
    { type: QueryTypes.SELECT }
  )
  console.log('  rows:', sizes)
}

if (path.resolve(process.argv[1] ?? '') === path.resolve(import.meta.filename)) {
  const t = performance.now()
  const { env, log, db } = await openBenchDb()
  console.log(`Seeding ${env.DATABASE_URL ? 'DATABASE_URL' : path.join(env.DATA_DIR, 'pg')}`)
  await seedDefaults(db.models, createServices({ sequelize: db.sequelize, models: db.models, env, log }), {
    adminEmail: BENCH_ADMIN.email,
    adminPassword: BENCH_ADMIN.password,
    log
  })
  await seedVolume(db, { orders: arg('orders', 1_000_000), agents: arg('agents', 10_000), afa: arg('afa', 100_000), reset: process.argv.includes('--reset') })
  console.log(`done in ${((performance.now() - t) / 1000).toFixed(1)} s`)
  await db.close()
}
