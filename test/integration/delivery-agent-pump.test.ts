import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryTypes } from 'sequelize'
import { connect } from '../../models/db.ts'
import { createDomainEvents } from '../../server/services/events/index.ts'
import { subscribeResellerApi } from '../../server/services/reseller-api/subscriptions.ts'
import { deliveryWith } from '../helpers/delivery.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

// An agent's paid order is claimed by the delivery pump like a customer's, with no job of its own: the
// agent's webhook events for the claim (PROCESSING) and the delivery (DELIVERED) are written with the
// claim and with the DELIVERED mark, once each, whatever fails or runs twice in between.
const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const drain = () => app().services.queue.drain()

const deliveryJobs = async () =>
  Number(
    (
      await q<{ n: string }>(
        `SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'delivery.send'`
      )
    )[0]!.n
  )

interface Written {
  job: number
  event: string
  order: number
  status: string
}

describe("an agent's paid order through the delivery pump", () => {
  let receiver: http.Server
  let url: string
  // The events the agent's endpoint received, by event id.
  let received: string[]
  // Every webhook event written, in the order it was written (job ids only grow). The queue deletes a job
  // once it ran, so a trigger of this test's own copies each new agent-webhook job as it is inserted.
  let written: Written[]
  const readWritten = async () => {
    const rows = await q<{ id: string; payload: any }>('SELECT id, payload FROM test_observe.webhook_jobs ORDER BY id')
    written = rows.map((r) => ({
      job: Number(r.id),
      event: r.payload.payload.id,
      order: Number(r.payload.payload.data.order.id),
      status: r.payload.payload.data.order.deliveryStatus
    }))
  }
  // The settlement's events (paid, queued): sent like the others, left out of `statusesOf`.
  let settled: Set<number>
  /** The statuses the agent's webhook was written for this order since the payment, in order. */
  const statusesOf = (orderId: number) => written.filter((w) => w.order === orderId && !settled.has(w.job)).map((w) => w.status)

  before(async () => {
    receiver = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push(JSON.parse(body).id)
        res.end('ok')
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
    await app().db.sequelize.query(`
      CREATE SCHEMA test_observe;
      CREATE TABLE test_observe.webhook_jobs (id bigint PRIMARY KEY, payload json NOT NULL);
      CREATE FUNCTION test_observe.copy() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
        IF (SELECT identifier FROM graphile_worker._private_tasks WHERE id = NEW.task_id) = 'agent-webhook' THEN
          INSERT INTO test_observe.webhook_jobs VALUES (NEW.id, NEW.payload);
        END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER test_observe_webhook_jobs AFTER INSERT ON graphile_worker._private_jobs FOR EACH ROW EXECUTE FUNCTION test_observe.copy();`)
  })
  after(async () => {
    app().services.delivery.simulatorControl({ mode: 'deliver' })
    await app().db.sequelize.query('DROP TRIGGER test_observe_webhook_jobs ON graphile_worker._private_jobs; DROP SCHEMA test_observe CASCADE')
    await new Promise<void>((r) => receiver.close(() => r()))
  })
  beforeEach(async () => {
    await resetDb()
    app().services.delivery.simulatorControl({ mode: 'deliver' })
    await app().db.sequelize.query('TRUNCATE test_observe.webhook_jobs')
    received = []
    written = []
    settled = new Set()
  })

  /** An approved agent with an API key, a webhook URL and GHS 100 in the wallet. */
  async function reseller() {
    const a = await createAgent()
    const portal = new Client()
    await portal.login(a.user.email, a.password)
    const key = await portal.post('/api/reseller/keys', { name: 'My shop' })
    expect(key.status, key.text).to.equal(201)
    await app().db.sequelize.query("UPDATE agents SET webhook_url = :url, webhook_secret = 'whsec_test_secret_0123456789' WHERE id = :id", {
      replacements: { url, id: a.agent.id }
    })
    const admin = await adminClient()
    expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 100, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
    const api = new Client()
    api.bearer = key.body.key
    const pkg = await createPackage({ network: 'MTN', priceUserPesewas: 500, priceAgentPesewas: 450 })
    return { ...a, api, pkg }
  }

  /** A wallet order over the reseller API; its settlement's events (paid, queued) are read and left out of `statusesOf`. */
  async function walletOrder(r: Awaited<ReturnType<typeof reseller>>, recipientNumber: string): Promise<number> {
    const res = await r.api.post('/api/v1/orders', { packageId: r.pkg.id, recipientNumber }, { 'Idempotency-Key': `order-${recipientNumber}` })
    expect(res.status, res.text).to.equal(201)
    const id = Number(res.body.order.id)
    await readWritten()
    const paid = written.filter((w) => w.order === id)
    expect(
      paid.map((w) => w.status),
      'the settlement reports the order paid and queued'
    ).to.deep.equal(['QUEUED', 'QUEUED'])
    for (const w of paid) settled.add(w.job)
    return id
  }

  /** A delivery service of another instance (its own simulator vendor), whose agents' webhooks hear its changes as the app's do. */
  function instance(
    sequelize = app().db.sequelize,
    env: Partial<ReturnType<typeof testEnv>> = {},
    also?: (events: ReturnType<typeof createDomainEvents>) => void
  ) {
    const events = createDomainEvents()
    subscribeResellerApi(events, app().services.resellerApi.webhooks)
    also?.(events)
    return deliveryWith(env, { sequelize, events })
  }

  async function orderOf(id: number) {
    return (await q('SELECT delivery_status, delivery_attempts, delivery_claim FROM orders WHERE id = :id', { id }))[0]
  }

  /** Every event written reached the agent's endpoint exactly once. */
  async function deliveredOnce() {
    await drain()
    await readWritten()
    expect([...received].sort()).to.deep.equal(written.map((w) => w.event).sort())
    expect(new Set(received).size).to.equal(received.length)
  }

  it('a wallet order adds no delivery job; the pump writes PROCESSING with its claim and DELIVERED with its mark, once each, in order', async () => {
    const r = await reseller()
    const id = await walletOrder(r, '0241112201')
    expect(await deliveryJobs()).to.equal(0)
    expect(await orderOf(id)).to.include({ delivery_status: 'QUEUED', delivery_attempts: 0 })

    expect(await app().services.delivery.pump(null)).to.equal(1)
    await readWritten()
    expect(statusesOf(id)).to.deep.equal(['PROCESSING', 'DELIVERED'])
    expect(await orderOf(id)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 1 })
    expect(await app().services.delivery.pump(null)).to.equal(0)
    await deliveredOnce()
    expect(statusesOf(id)).to.deep.equal(['PROCESSING', 'DELIVERED'])
    expect(await deliveryJobs()).to.equal(0)
  })

  it('a vendor failure goes back to QUEUED with a job and its backoff; the retry delivers; each change is reported once, in order', async () => {
    const r = await reseller()
    const id = await walletOrder(r, '0241112202')
    app().services.delivery.simulatorControl({ mode: 'fail', count: 1 })
    expect(await app().services.delivery.pump(null)).to.equal(1)
    // The retry path: QUEUED with an attempt made (the pump never takes it) and a job of its own.
    expect(await orderOf(id)).to.include({ delivery_status: 'QUEUED', delivery_attempts: 1 })
    expect(await deliveryJobs()).to.equal(1)
    expect(await app().services.delivery.pump(null)).to.equal(0)
    await drain()
    expect(await orderOf(id)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 2 })
    await deliveredOnce()
    expect(statusesOf(id)).to.deep.equal(['PROCESSING', 'QUEUED', 'PROCESSING', 'DELIVERED'])
  })

  it("a claim whose subscriber fails after the agent's event was written is undone with it: the order waits for the next claim, reported once", async () => {
    const r = await reseller()
    const id = await walletOrder(r, '0241112205')
    let failures = 1
    // Another subscriber of the claim fails once, after the webhook's row was written in the claim's transaction.
    const failing = instance(undefined, {}, (events) =>
      events.on(
        'delivery.changed',
        async () => {
          if (failures-- > 0) throw new Error('a subscriber failed')
        },
        { to: ['PROCESSING'], agentOrdersOnly: true }
      )
    )
    expect(await failing.pump(null)).to.equal(0)
    expect(await orderOf(id)).to.include({ delivery_status: 'QUEUED', delivery_attempts: 0 })
    expect(failing.simulatorState().calls).to.equal(0)
    await readWritten()
    expect(statusesOf(id)).to.deep.equal([])
    expect(await failing.pump(null)).to.equal(1)
    await deliveredOnce()
    expect(statusesOf(id)).to.deep.equal(['PROCESSING', 'DELIVERED'])
  })

  it('a claim whose process died before the vendor call is taken back by a pump or by the stale sweep: PROCESSING is not reported again', async () => {
    const r = await reseller()
    const [byPump, bySweep] = [await walletOrder(r, '0241112203'), await walletOrder(r, '0241112204')]
    // A pump of a process now gone claimed both (its PROCESSING events written with the claim), then died.
    const claimed = await instance().state.claimWaitingHeard(16, { claim: 'pool-gone' })
    expect(claimed.map((o) => Number(o.id)).sort()).to.deep.equal([byPump, bySweep].sort())
    await q(`UPDATE orders SET updated_at = now() - interval '1 hour' WHERE id IN (:ids)`, { ids: [byPump, bySweep] })
    // One is taken back by a live pool's pump (its first run that finds nothing waiting looks)...
    await q(`UPDATE orders SET delivery_claim = NULL WHERE id = :id`, { id: bySweep })
    const live = instance()
    expect(await live.pump('pool-here')).to.equal(1)
    expect(live.simulatorState().calls).to.equal(1)
    expect(await orderOf(byPump)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 2 })
    // ... the other (no claim a pump could take back) by the stale-order sweep's job.
    expect(await app().services.delivery.sync()).to.deep.equal({ requeued: 1, checked: 0 })
    await drain()
    expect(await orderOf(bySweep)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 2 })
    await deliveredOnce()
    expect(statusesOf(byPump)).to.deep.equal(['PROCESSING', 'DELIVERED'])
    expect(statusesOf(bySweep)).to.deep.equal(['PROCESSING', 'DELIVERED'])
  })

  it('two instances pumping at once claim each order once: one vendor call and one PROCESSING and DELIVERED event each', async () => {
    const r = await reseller()
    const ids: number[] = []
    for (let i = 0; i < 12; i++) ids.push(await walletOrder(r, `02411123${String(i).padStart(2, '0')}`))
    const instances = [0, 1].map(() => {
      const { sequelize } = connect(app().db.url)
      return { sequelize, delivery: instance(sequelize, { DELIVERY_BATCH_MAX: 3 }) }
    })
    try {
      let runs = 0
      for (let claimed = 1; claimed > 0; runs++) claimed = (await Promise.all(instances.map((i) => i.delivery.pump(null)))).reduce((a, b) => a + b, 0)
      expect(runs).to.be.greaterThan(2)
      const calls = instances.map((i) => i.delivery.simulatorState().calls)
      expect(calls.reduce((a, b) => a + b, 0)).to.equal(ids.length)
      expect(
        calls.every((n) => n > 0),
        `both instances claimed some: ${calls}`
      ).to.equal(true)
    } finally {
      for (const i of instances) await i.sequelize.close()
    }
    await deliveredOnce()
    for (const id of ids) {
      expect(await orderOf(id)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 1 })
      expect(statusesOf(id)).to.deep.equal(['PROCESSING', 'DELIVERED'])
    }
  })
})
