import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { connect } from '../../models/db.ts'
import { boot, type Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { createSimulatorVendor, databaseKeyStore } from '../../server/services/delivery/vendors/simulator.ts'
import { SETTINGS_CHANNEL } from '../../server/services/settings/index.ts'
import { Client } from '../helpers/http.ts'
import { startOutageApp } from '../helpers/outage-app.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

async function until(what: string, check: () => Promise<boolean> | boolean, ms: number) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await sleep(100)
  }
}

/** A connection of the test's own, outside every pool the app has (it survives what the test does to them). */
async function adminConnection(): Promise<pg.Client> {
  // On the maintenance database: a database cannot refuse connections to itself from inside.
  const url = new URL(app().db.url)
  url.pathname = '/postgres'
  const c = new pg.Client({ connectionString: url.toString() })
  c.on('error', () => {})
  await c.connect()
  return c
}

describe('when the database blinks', function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  describe('an instance whose database cannot be reached', () => {
    let outage: Awaited<ReturnType<typeof startOutageApp>>
    let base: string
    before(async () => {
      outage = await startOutageApp()
      base = outage.base
    })
    after(() => outage.close())

    it('answers the API 503 with Retry-After and the { error } shape, never 500', async () => {
      for (const [method, path, body] of [['GET', '/api/settings'], ['GET', '/api/packages'], ['POST', '/api/orders', { packageId: 1, recipientNumber: '0241234567' }]] as const) {
        const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: body ? JSON.stringify(body) : undefined })
        expect(res.status, `${method} ${path}`).to.equal(503)
        expect(res.headers.get('retry-after')).to.equal('5')
        expect(await res.json()).to.deep.equal({ error: 'The service is briefly unavailable. Please try again in a few seconds.' })
      }
    })

    it("shows a browser the 'We'll be right back' page, not the error page", async () => {
      for (const path of ['/', '/buy', '/login']) {
        const res = await fetch(`${base}${path}`, { headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0' } })
        expect(res.status, path).to.equal(503)
        expect(res.headers.get('retry-after')).to.equal('5')
        const html = await res.text()
        expect(html).to.include("<h1>We'll be right back</h1>")
        expect(html).to.include('name="viewport"')
        expect(html).not.to.include('Something went wrong')
      }
    })

    it('/readyz says unavailable with Retry-After', async () => {
      const res = await fetch(`${base}/readyz`)
      expect(res.status).to.equal(503)
      expect(res.headers.get('retry-after')).to.equal('5')
      expect(await res.json()).to.include({ status: 'unavailable' })
    })
  })

  it('the settings listener comes back after its reconnects failed for a while, and NOTIFY reaches it again', async () => {
    const { services } = app()
    const admin = await adminConnection()
    const db = new URL(app().db.url).pathname.slice(1)
    try {
      // New connections are refused (as while PostgreSQL restarts), then the listener's own is cut.
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(db)} ALLOW_CONNECTIONS false`)
      await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'datahub-settings-listener'`)
      await until('the listener to notice', () => !services.connections.isUp('datahub-settings-listener'), 5000)
      // Long enough for several reconnects to fail (the first retry comes within 0.3 s).
      await sleep(2500)
      expect(services.connections.isUp('datahub-settings-listener')).to.equal(false)
    } finally {
      await admin.query(`ALTER DATABASE ${pg.escapeIdentifier(db)} ALLOW_CONNECTIONS true`)
      await admin.end()
    }
    await until('the listener to be back', () => services.connections.isUp('datahub-settings-listener'), 8000)
    await services.settings.get()
    const before = services.settings.version()
    // Another instance's save: a NOTIFY on the shop's database.
    await app().db.sequelize.query(`NOTIFY ${SETTINGS_CHANNEL}, '1'`)
    await until('the NOTIFY to drop the cached settings', () => services.settings.version() !== before, 2000)
    const ready = await new Client().get('/readyz')
    expect(ready.body.connections['datahub-settings-listener']).to.include({ up: true })
    expect(ready.body.connections['datahub-settings-listener'].losses).to.be.greaterThan(0)
  })

  it('/metrics counts a job a worker holds on its last attempt as running, not failed', async () => {
    const [{ id }] = (await q<{ id: string }>(`SELECT (graphile_worker.add_job('outage-test', '{}'::json, max_attempts => 1)).id::text AS id`)) as [{ id: string }]
    await q(`UPDATE graphile_worker._private_jobs SET locked_by = 'pool-x', locked_at = now(), attempts = 1 WHERE id = :id`, { id })
    const held = (await new Client().get('/metrics')).text
    expect(held).to.include('datahub_queue_jobs{state="running"} 1')
    expect(held).to.include('datahub_queue_jobs{state="failed"} 0')
    await q(`UPDATE graphile_worker._private_jobs SET locked_by = NULL, locked_at = NULL, last_error = 'gave up' WHERE id = :id`, { id })
    expect((await new Client().get('/metrics')).text).to.include('datahub_queue_jobs{state="failed"} 1')
  })

  it("takes back jobs held by a worker pool that is gone within seconds, and leaves a live pool's alone", async () => {
    const add = async (lockedBy: string) => {
      const [{ id }] = (await q<{ id: string }>(`SELECT (graphile_worker.add_job('outage-test', '{}'::json)).id::text AS id`)) as [{ id: string }]
      await q(`UPDATE graphile_worker._private_jobs SET locked_by = :lockedBy, locked_at = now() - interval '30 seconds', attempts = 1 WHERE id = :id`, { id, lockedBy })
      return id
    }
    // A live pool: its connection named after it (what every instance's queue keeps open).
    const alive = new pg.Client({ connectionString: app().db.url, application_name: 'dhq:pool-alive' })
    alive.on('error', () => {})
    await alive.connect()
    const deadJob = await add('pool-dead')
    const liveJob = await add('pool-alive')
    const { sequelize, models } = connect(app().db.url)
    const env = { ...testEnv(), PORT: 0, JOBS_ENABLED: true }
    let other: Running | undefined
    try {
      other = await boot({ env, log: createLogger('silent'), db: { sequelize, models, url: app().db.url, close: () => sequelize.close() } })
      const started = Date.now()
      const lockOf = async (id: string) => (await q<{ locked_by: string | null }>('SELECT locked_by FROM graphile_worker._private_jobs WHERE id = :id', { id }))[0]!.locked_by
      await until('the dead pool\'s job to be released', async () => (await lockOf(deadJob)) === null, 20_000)
      expect(Date.now() - started).to.be.lessThan(15_000)
      expect(await lockOf(liveJob)).to.equal('pool-alive')
    } finally {
      await other?.stop()
      await alive.end()
    }
  })

  it('the delivery simulator answers a resent key with the first reference, also from a restarted process', async () => {
    const order = { id: 1, network: 'MTN', recipientNumber: '0241234567', sizeMb: 1024 } as never
    const store = databaseKeyStore(app().db.sequelize)
    const first = await createSimulatorVendor({ delayMs: 0, timeoutMs: 1000, store }).vendor.send(order, 'order-1-key')
    // A new process: nothing in memory, the key is in the database.
    const again = await createSimulatorVendor({ delayMs: 0, timeoutMs: 1000, store }).vendor.send(order, 'order-1-key')
    expect(again).to.include({ status: 'DELIVERED', reference: first.reference })
    const other = await createSimulatorVendor({ delayMs: 0, timeoutMs: 1000, store }).vendor.send(order, 'order-2-key')
    expect(other.reference).not.to.equal(first.reference)
    expect((await q<{ n: string }>('SELECT count(*) AS n FROM delivery_simulator_sends'))[0]!.n).to.equal('2')
  })

  it('a payer whose approval was saved is never answered 500 when the settlement behind it fails', async () => {
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const payer = new Client()
    const order = await payer.post('/api/orders', { packageId: pkg, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(order.status, order.text).to.equal(201)
    const tid = order.body.payment.transactionId as string
    // The settlement's write fails after the answer is saved (as when the connection dies between them).
    await q(`CREATE FUNCTION outage_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'connection lost'; END $$`)
    await q(`CREATE TRIGGER outage_test_fail BEFORE UPDATE OF status ON payments FOR EACH ROW WHEN (NEW.status = 'SUCCESS') EXECUTE FUNCTION outage_test_fail()`)
    try {
      const res = await payer.post(`/api/simulator/payments/${tid}/approve`)
      expect(res.status, res.text).to.equal(202)
      expect(res.body).to.include({ reference: tid, decision: 'APPROVED', paymentStatus: 'PENDING', message: 'Your answer was recorded. The payment is being confirmed.' })
    } finally {
      await q('DROP TRIGGER outage_test_fail ON payments')
      await q('DROP FUNCTION outage_test_fail()')
    }
    // The saved answer settles it on the next check, once.
    await app().services.payments.refresh(tid)
    expect((await app().services.payments.load(tid))!.status).to.equal('SUCCESS')
    expect((await payer.post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(409)
  })
})
