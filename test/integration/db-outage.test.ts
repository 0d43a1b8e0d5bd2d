import { expect } from 'chai'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { connect } from '../../models/db.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { createSimulatorVendor, databaseKeyStore } from '../../server/services/delivery/vendors/simulator.ts'
import { SETTINGS_CHANNEL } from '../../server/services/settings/index.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
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
      for (const [method, path, body] of [
        ['GET', '/api/settings'],
        ['GET', '/api/packages'],
        ['POST', '/api/orders', { packageId: 1, recipientNumber: '0241234567' }]
      ] as const) {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: body ? JSON.stringify(body) : undefined
        })
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
    const [{ id }] = (await q<{ id: string }>(`SELECT (graphile_worker.add_job('outage-test', '{}'::json, max_attempts => 1)).id::text AS id`)) as [
      { id: string }
    ]
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
      await q(`UPDATE graphile_worker._private_jobs SET locked_by = :lockedBy, locked_at = now() - interval '30 seconds', attempts = 1 WHERE id = :id`, {
        id,
        lockedBy
      })
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
      const lockOf = async (id: string) =>
        (await q<{ locked_by: string | null }>('SELECT locked_by FROM graphile_worker._private_jobs WHERE id = :id', { id }))[0]!.locked_by
      await until("the dead pool's job to be released", async () => (await lockOf(deadJob)) === null, 20_000)
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
    await q(
      `CREATE TRIGGER outage_test_fail BEFORE UPDATE OF status ON payments FOR EACH ROW WHEN (NEW.status = 'SUCCESS') EXECUTE FUNCTION outage_test_fail()`
    )
    try {
      const res = await payer.post(`/api/simulator/payments/${tid}/approve`)
      expect(res.status, res.text).to.equal(202)
      expect(res.body).to.include({
        reference: tid,
        decision: 'APPROVED',
        paymentStatus: 'PENDING',
        message: 'Your answer was recorded. The payment is being confirmed.'
      })
    } finally {
      await q('DROP TRIGGER outage_test_fail ON payments')
      await q('DROP FUNCTION outage_test_fail()')
    }
    // The saved answer settles it on the next check, once.
    await app().services.payments.refresh(tid)
    expect((await app().services.payments.load(tid))!.status).to.equal('SUCCESS')
    expect((await payer.post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(409)
  })
  /**
   * From the moment a statement like `written` ran in a transaction (or, `alone`, as its own transaction: a wallet
   * order's one autocommitted statement, ADR 0079), every statement outside a transaction fails as on a dead
   * connection, until the answer is back: what the caller is told can only come from before the commit, or from that
   * statement itself.
   */
  async function withConnectionLostAfter<T>(written: RegExp, fn: () => Promise<T>, alone = false): Promise<T> {
    const sequelize = app().db.sequelize
    let debited = false
    let failed = 0
    // The statement's text is known only once it ran (afterQuery); the loss hits the next one.
    const noticeDebit = (options: { transaction?: unknown }, query: { sql?: string }) => {
      if (options.transaction && written.test(String(query?.sql ?? ''))) debited = true
    }
    const loseConnection = (options: { transaction?: unknown }) => {
      if (debited && !options.transaction) {
        failed++
        throw new Error('Connection terminated unexpectedly')
      }
    }
    // Named statements (models/prepared.ts) go to pg straight, past Sequelize's hooks: the same rule
    // at pg's level, with each connection's transaction followed by its START TRANSACTION and COMMIT.
    const query = pg.Client.prototype.query
    const inTransaction = new WeakSet<object>()
    pg.Client.prototype.query = function (this: object, ...args: unknown[]) {
      const q = args[0] as string | { name?: string; text?: string }
      const text = typeof q === 'string' ? q : (q?.text ?? '')
      if (/^\s*(START TRANSACTION|BEGIN)/i.test(text)) inTransaction.add(this)
      if (/^\s*(COMMIT|ROLLBACK)/i.test(text)) inTransaction.delete(this)
      if (typeof q === 'object' && q?.name) {
        if (debited && !inTransaction.has(this)) {
          failed++
          const lost = new Error('Connection terminated unexpectedly')
          // As pg answers a lost connection in each of its forms: to the callback when given one, else by the promise.
          const done = args.at(-1)
          if (typeof done === 'function') return void process.nextTick(done, lost)
          return Promise.reject(lost)
        }
        if (inTransaction.has(this) && written.test(text)) debited = true
        // Its own transaction: the loss hits every statement after it.
        if (alone && !inTransaction.has(this) && written.test(text)) {
          const sent = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args)
          debited = true
          return sent
        }
      }
      return (query as (...a: unknown[]) => unknown).apply(this, args)
    } as typeof query
    sequelize.addHook('afterQuery', 'lost-after-debit', noticeDebit as never)
    sequelize.addHook('beforeQuery', 'lost-after-debit', loseConnection as never)
    try {
      const out = await fn()
      expect(debited, `a statement like ${written} ran`).to.equal(true)
      return Object.assign(out as object, { failedReads: failed }) as T
    } finally {
      pg.Client.prototype.query = query
      sequelize.removeHook('beforeQuery', 'lost-after-debit')
      sequelize.removeHook('afterQuery', 'lost-after-debit')
    }
  }

  const DEBIT = /INSERT INTO "?wallet_entries/i

  async function fundedAgent() {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const a = await createAgent()
    const admin = await adminClient()
    expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 20, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
    return { pkg, a }
  }

  it("an agent's wallet order is answered with the saved order when the connection is lost after the debit", async () => {
    const { pkg, a } = await fundedAgent()
    const portal = new Client()
    await portal.login(a.user.email, a.password)
    const res = await withConnectionLostAfter(DEBIT, () => portal.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112233', payFrom: 'wallet' }))
    expect(res.status, res.text).to.equal(201)
    expect(res.body.order).to.include({ paymentStatus: 'SUCCESS', recipientNumber: '0241112233' })
    expect(res.body.payment).to.include({ paymentStatus: 'SUCCESS' })
    const [n] = await q<{ n: string }>('SELECT count(*) AS n FROM orders WHERE agent_id = :id', { id: a.agent.id })
    expect(n!.n).to.equal('1')
  })

  it('a reseller API wallet order is answered 201 with the saved order when the connection is lost after the debit', async () => {
    const { pkg, a } = await fundedAgent()
    const portal = new Client()
    await portal.login(a.user.email, a.password)
    const created = await portal.post('/api/reseller/keys', { name: 'My shop' })
    expect(created.status, created.text).to.equal(201)
    const api = new Client()
    api.bearer = created.body.key
    const res = await withConnectionLostAfter(
      DEBIT,
      () => api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112244' }, { 'Idempotency-Key': 'lost-after-debit-1' }),
      true
    )
    expect(res.status, res.text).to.equal(201)
    expect(res.body.order).to.include({ recipientNumber: '0241112244' })
    // The same key later answers the same order: one order, one debit.
    const again = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112244' }, { 'Idempotency-Key': 'lost-after-debit-1' })
    expect(again.body.order.id).to.equal(res.body.order.id)
    const [d] = await q<{ n: string }>(`SELECT count(*) AS n FROM wallet_entries WHERE agent_id = :id AND type = 'ORDER'`, { id: a.agent.id })
    expect(d!.n).to.equal('1')
  })
  it("the card callback answers a settled payment's success when the connection is lost after the settlement", async () => {
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const agent = await createAgent()
    const buyer = new Client()
    await buyer.login(agent.user.email, agent.password)
    const placed = await buyer.post('/api/orders', { packageId: pkg, recipientNumber: '0201113333', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(placed.status, placed.text).to.equal(201)
    const tid = placed.body.payment.transactionId as string
    // The payer's answer is saved without settling it, so the callback's own check is what settles.
    await q(
      `UPDATE payments SET details = jsonb_set(details, '{simulator}', jsonb_build_object('decision', 'APPROVED', 'at', now())) WHERE transaction_id = :tid`,
      { tid }
    )
    const res = await withConnectionLostAfter(/./, () => buyer.get(`/api/webhooks/paystack?reference=${tid}`))
    expect(res.status, res.text).to.equal(200)
    expect(res.body).to.include({ status: 'success', paymentStatus: 'SUCCESS', type: 'agent_order' })
  })
})
