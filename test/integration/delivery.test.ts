import { expect } from 'chai'
import net from 'node:net'
import pg from 'pg'
import { QueryTypes } from 'sequelize'
import { connect } from '../../models/db.ts'
import { createDeliveryService } from '../../server/services/delivery/index.ts'
import { createDomainEvents } from '../../server/services/events/index.ts'
import { LIVENESS_PREFIX } from '../../server/services/queue/index.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { deliveryWith } from '../helpers/delivery.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

// With the built-in simulator vendor (no vendor keys in the test app, no delay).
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
const setSettings = (s: Record<string, unknown>) => app().services.settings.update(s, {})
const drain = () => app().services.queue.drain()

/** A visitor buys 1GB MTN for 0201112222 and approves on the simulator phone. */
async function buyAndPay(recipientNumber = '0201112222') {
  const placed = await new Client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(placed.status).to.equal(201)
  const tid = placed.body.payment.transactionId as string
  expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
  return { id: placed.body.order.id as number, tid }
}

async function orderOf(id: number) {
  const [o] = await q<any>('SELECT * FROM orders_view WHERE id = :id', { id })
  return o
}

/** The pending delivery jobs, with their payloads (the public jobs view leaves them out). */
const deliveryJobs = () =>
  q<{ key: string; payload: any }>(
    `SELECT j.key, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'delivery.send' ORDER BY j.id`
  )

const audits = (action: string, id: number) => q<any>(`SELECT * FROM audit_logs WHERE action = :action AND resource_id = :id`, { action, id: String(id) })

describe('delivery (simulator vendor)', () => {
  beforeEach(async () => {
    await resetDb()
    app().services.delivery.simulatorControl({ mode: 'deliver' })
  })

  it('settlement queues the delivery in its transaction; the worker delivers; lookup, agent and admin views say so', async () => {
    const { id } = await buyAndPay()
    let o = await orderOf(id)
    expect(o.delivery_status).to.equal('QUEUED')
    // The QUEUED order is its own queue row (ADR 0056): no job is added for it.
    const jobs = await q<{ n: string }>(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'delivery.send'`)
    expect(Number(jobs[0]!.n)).to.equal(0)
    await drain()
    o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'DELIVERED', delivered: true, delivery_vendor: 'simulator', delivery_attempts: 1 })
    expect(o.delivery_reference).to.match(/^SIM-/)
    expect(o.delivered_at).to.be.instanceOf(Date)

    const lookup = await new Client().get('/api/orders?phoneNumber=0201112222')
    expect(lookup.body.orders?.[0] ?? lookup.body[0]).to.include({
      deliveryStatus: 'DELIVERED',
      deliveryReference: o.delivery_reference,
      deliveryAttempts: 1,
      deliveryError: null,
      delivered: true
    })

    const admin = await adminClient()
    const list = await admin.get('/api/orders?deliveryStatus=DELIVERED')
    expect(list.body.orders.map((r: any) => r.id)).to.deep.equal([id])
    expect(list.body.orders[0]).to.include({ deliveryStatus: 'DELIVERED', deliveryReference: o.delivery_reference, deliveryAttempts: 1 })
    expect((await admin.get('/api/orders?deliveryStatus=FAILED')).body.orders).to.have.length(0)
    expect((await admin.get('/api/orders?deliveryStatus=bogus')).status).to.equal(400)

    expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    // The 'delivered' SMS is written and dispatched (log provider) with its message id.
    const sms = await q<any>(`SELECT * FROM sms_outbox ORDER BY id`)
    expect(sms.map((m) => m.status)).to.deep.equal(['SENT', 'SENT'])
    expect(sms[1].message).to.equal('Your 1.0GB MTN data to 0201112222 has been delivered.')
    expect(sms[1].provider).to.equal('log')
    expect(sms[1].provider_message_id).to.match(/^log-/)

    // A job run again changes nothing (idempotent handler).
    await app().services.delivery.runSend(id)
    expect((await orderOf(id)).delivery_attempts).to.equal(1)
  })

  it('no job per paid order: the pump claims it from the orders table and sends the order-created text with the delivered one', async () => {
    const { id } = await buyAndPay()
    const jobs = await q<{ task_identifier: string }>(
      `SELECT t.identifier AS task_identifier FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id ORDER BY j.id`
    )
    expect(jobs.filter((j) => j.task_identifier !== 'delivery.sweep')).to.deep.equal([])
    const [created] = await q<any>(`SELECT * FROM sms_outbox ORDER BY id`)
    expect(created).to.include({ status: 'QUEUED' })
    expect((await orderOf(id)).delivery_claim).to.equal(null)
    await drain()
    const sms = await q<any>(`SELECT * FROM sms_outbox ORDER BY id`)
    expect(sms.map((m) => [m.status, m.attempts])).to.deep.equal([
      ['SENT', 1],
      ['SENT', 1]
    ])
    expect(sms[0].message).to.match(/1\.0GB MTN/)
    expect(Number((await q<{ n: string }>(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'sms.send'`))[0]!.n)).to.equal(0)
  })

  it('a batch of paid orders is delivered in three statements beside the vendor calls: one claim, one DELIVERED with entries and texts (claiming them and the handed-over texts), one mark', async () => {
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push((await buyAndPay(`02011100${i}${i}`)).id)
    const seen: string[] = []
    const query = pg.Client.prototype.query as (...a: unknown[]) => unknown
    ;(pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, ...a: unknown[]) {
      const c = a[0] as string | { text?: string }
      const text = (typeof c === 'string' ? c : (c?.text ?? '')).replace(/\s+/g, ' ').trim()
      // Not the delivery's own: a claim by another pool, and the settings copy read again when a save's notice
      // (an earlier test's) reaches this instance during the pump.
      const otherPool = /^WITH before AS MATERIALIZED/.test(text) && !JSON.stringify(a).includes('test-pool')
      if (!otherPool && !/^SELECT xmin::text AS version, data FROM settings/.test(text)) seen.push(text)
      return query.apply(this, a)
    }
    let claimed: number
    try {
      claimed = await app().services.delivery.pump('test-pool')
    } finally {
      ;(pg.Client.prototype as { query: unknown }).query = query
    }
    expect(claimed).to.equal(5)
    for (const id of ids) {
      expect(await orderOf(id)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 1, delivery_claim: null })
      expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    }
    // The simulator vendor keeps its own row per call (its idempotency keys): the vendor's side, not ours;
    // a connection the pool opens meanwhile sends its session settings first; a claim with room also looks
    // for claims of a process that is gone, and for orders a subscriber acts on at their claim (in a
    // transaction of its own), each at most every 2 s: not the batch's.
    let inLook = false
    const ours = seen.filter((t) => {
      if (t.startsWith('START TRANSACTION')) inLook = true
      const look = inLook
      if (t.startsWith('COMMIT')) inLook = false
      return !look && !/delivery_simulator_sends|^SET client_min_messages|delivery_claim IS NOT NULL/.test(t)
    })
    expect(
      ours.map((t) => t.slice(0, 90)),
      ours.map((t) => t.slice(0, 90)).join('\n')
    ).to.have.length(3)
    expect(ours[0]).to.match(/^WITH before AS MATERIALIZED .*UPDATE orders o SET delivery_status/)
    expect(ours[1]).to.match(/^WITH v AS .*INSERT INTO audit_logs.*UPDATE sms_outbox SET status = 'SENDING'/)
    expect(ours[2]).to.match(/^UPDATE sms_outbox s SET status/)
    const texts = await q<{ status: string; attempts: number }>(`SELECT status, attempts FROM sms_outbox`)
    expect(texts).to.have.length(10)
    expect(texts.every((m) => m.status === 'SENT' && m.attempts === 1)).to.equal(true)
  })

  it('paid orders wait in the orders table; one pump run delivers them all, each once, a failed call retried on its own', async () => {
    const ids: number[] = []
    for (const r of ['0201110001', '0201110017', '0201110033']) ids.push((await buyAndPay(r)).id)
    const before = app().services.delivery.simulatorState()
    app().services.delivery.simulatorControl({ mode: 'fail', count: 1 })
    await drain()
    // Three calls in the batch (one failed), then the failed order's retry in a job of its own.
    const after = app().services.delivery.simulatorState()
    expect([after.calls - before.calls, after.delivered - before.delivered]).to.deep.equal([4, 3])
    for (const id of ids) {
      const o = await orderOf(id)
      expect(o).to.include({ delivery_status: 'DELIVERED', delivered: true, delivery_vendor: 'simulator' })
      expect(o.delivery_reference).to.match(/^SIM-/)
      const entries = await audits('ORDER_DELIVERED', id)
      expect(entries).to.have.length(1)
      expect(entries[0].details).to.include({ deliveryStatus: 'DELIVERED', previous: 'PROCESSING', vendor: 'simulator', reference: o.delivery_reference })
    }
    expect((await Promise.all(ids.map(orderOf))).map((o) => o.delivery_attempts).sort()).to.deep.equal([1, 1, 2])
    // Each buyer: the order-created and the delivered text, sent once.
    const sms = await q<{ to_phone: string; message: string; status: string; attempts: number }>(`SELECT * FROM sms_outbox ORDER BY id`)
    expect(sms).to.have.length(6)
    expect(sms.every((m) => m.status === 'SENT' && m.attempts === 1)).to.equal(true)
    expect(
      sms
        .filter((m) => /has been delivered/.test(m.message))
        .map((m) => m.message)
        .sort()
    ).to.deep.equal(['0201110001', '0201110017', '0201110033'].map((r) => `Your 1.0GB MTN data to ${r} has been delivered.`))
  })

  it('a pump run takes at most DELIVERY_BATCH_MAX orders, the oldest first; the next runs take the rest', async () => {
    const ids: number[] = []
    for (let i = 0; i < 5; i++) ids.push((await buyAndPay(`02013300${i}${i}`)).id)
    expect(await deliveryWith({ DELIVERY_BATCH_MAX: 2 }).pump(null)).to.equal(2)
    expect(await Promise.all(ids.map(async (id) => (await orderOf(id)).delivery_status))).to.deep.equal([
      'DELIVERED',
      'DELIVERED',
      'QUEUED',
      'QUEUED',
      'QUEUED'
    ])
    await drain()
    for (const id of ids) {
      expect((await orderOf(id)).delivery_status).to.equal('DELIVERED')
      expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    }
  })

  it("a pump's claim names its worker pool; a claim whose pool's connection is gone is taken back, a live one's never", async () => {
    const [gone, live] = [(await buyAndPay('0201110001')).id, (await buyAndPay('0201110002')).id]
    // Both claimed a minute ago by pumps that never reached the vendor: one pool's process died, the other still runs.
    await q(
      `UPDATE orders SET delivery_status = 'PROCESSING', delivery_attempts = 1, updated_at = now() - interval '1 minute',
         delivery_claim = CASE WHEN id = :gone THEN 'pool-gone' ELSE 'pool-live' END WHERE id IN (:gone, :live) RETURNING id`,
      { gone, live }
    )
    const liveConnection = new pg.Client({ connectionString: app().db.url, application_name: `${LIVENESS_PREFIX}pool-live` })
    await liveConnection.connect()
    try {
      // A fresh service (its own simulator): its first run that finds nothing waiting looks for abandoned claims.
      const fresh = deliveryWith({})
      expect(await fresh.pump('pool-here')).to.equal(1)
      expect(fresh.simulatorState().calls).to.equal(1)
      expect(await orderOf(gone)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 2 })
      expect(await orderOf(live)).to.include({ delivery_status: 'PROCESSING', delivery_claim: 'pool-live' })
      expect(await audits('ORDER_DELIVERED', gone)).to.have.length(1)
    } finally {
      await liveConnection.end()
    }
  })

  it('orders a pump claimed when the database went away are taken again by its own pool once it is back, not left to the stale sweep', async () => {
    const { id } = await buyAndPay()
    // The service's database connections go through a relay the test cuts: a network outage, real PostgreSQL behind it.
    const target = new URL(app().db.url)
    const sockets = new Set<net.Socket>()
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port), '127.0.0.1')
      for (const [a, b] of [
        [client, upstream],
        [upstream, client]
      ] as const) {
        sockets.add(a)
        a.on('error', () => b.destroy())
        a.on('close', () => b.destroy())
        a.pipe(b)
      }
    })
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r))
    const relayPort = (relay.address() as net.AddressInfo).port
    const viaRelay = `postgres://${target.username}:${target.password}@127.0.0.1:${relayPort}${target.pathname}`
    const { sequelize } = connect(viaRelay)
    const { services } = app()
    const delivery = createDeliveryService({
      sequelize,
      audit: services.audit,
      settings: services.settings,
      sms: services.sms,
      queue: services.queue,
      env: { ...testEnv(), DELIVERY_SIMULATOR_DELAY_MS: 300 },
      log: services.deps.log,
      events: createDomainEvents()
    })
    try {
      const run = delivery.pump('pool-here')
      // Claimed, its vendor call under way: the network goes.
      for (let waited = 0; (await orderOf(id)).delivery_status !== 'PROCESSING'; waited += 20) {
        if (waited > 10_000) throw new Error('never claimed')
        await new Promise((r) => setTimeout(r, 20))
      }
      relay.close()
      for (const sk of sockets) sk.destroy()
      const failed = await run.then(
        () => null,
        (err: Error) => err
      )
      expect(failed, 'the run meets the database gone').to.not.equal(null)
      expect(await orderOf(id)).to.include({ delivery_status: 'PROCESSING', delivery_claim: 'pool-here' })
      // A claim this recent may still have its answer on the way: a few seconds pass.
      await q(`UPDATE orders SET updated_at = now() - interval '5 seconds' WHERE id = :id RETURNING id`, { id })
      // Its first run had room, so it looked for cut-off claims then; it looks again 2 s later at the earliest.
      await new Promise((r) => setTimeout(r, 2100))
      // Back: the same relay port again, and the next run of the same pump (its next look for cut-off claims).
      await new Promise<void>((r) => relay.listen(relayPort, '127.0.0.1', r))
      await delivery.pump('pool-here')
      expect(await orderOf(id)).to.include({ delivery_status: 'DELIVERED', delivery_claim: null })
      expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    } finally {
      relay.close()
      for (const sk of sockets) sk.destroy()
      await sequelize.close().catch(() => {})
    }
  })

  it('a batch job queued before the pump, run twice at once, with the pump and its orders sent one by one meanwhile: one bundle per order, one entry and one text', async () => {
    const ids: number[] = []
    for (const r of ['0201220002', '0201220018', '0201220034', '0201220050']) ids.push((await buyAndPay(r)).id)
    const payload = ids.map((orderId) => ({ orderId }))
    const before = app().services.delivery.simulatorState()
    const { delivery } = app().services
    await Promise.all([delivery.runBatch(payload), delivery.runBatch(payload), delivery.pump(null), ...ids.map((id) => delivery.runSend(id))])
    await drain()
    // Claims that raced may each call the vendor (a claim takes PROCESSING back, for a worker that
    // died); they share the order's key, so the vendor sends one bundle per order.
    const after = app().services.delivery.simulatorState()
    expect(after.delivered - before.delivered).to.equal(4)
    expect(after.calls - before.calls).to.be.at.least(4)
    for (const id of ids) {
      expect(await orderOf(id)).to.include({ delivery_status: 'DELIVERED', delivered: true })
      expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    }
    const delivered = await q<{ n: string }>(`SELECT count(*) AS n FROM sms_outbox WHERE message LIKE '%has been delivered.'`)
    expect(Number(delivered[0]!.n)).to.equal(4)
    expect((await q<{ status: string }>(`SELECT status FROM sms_outbox`)).every((m) => m.status === 'SENT')).to.equal(true)
  })

  it('a delivery job that dies before sending the texts: they are in the outbox and the sweep sends them', async () => {
    const { id } = await buyAndPay()
    // The worker died after the vendor call's commit, before its texts went out: simulated by
    // running the job's work without its texts and ageing the rows past the sweep's wait.
    await app().services.delivery.runSend(id)
    await q(`UPDATE sms_outbox SET updated_at = now() - interval '5 minutes' WHERE status = 'QUEUED' RETURNING id`)
    expect((await q<any>(`SELECT status FROM sms_outbox ORDER BY id`)).map((m) => m.status)).to.deep.equal(['QUEUED', 'SENT'])
    expect(await app().services.sms.sweep()).to.equal(1)
    await q(
      `DELETE FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'delivery.send') RETURNING id`
    )
    await drain()
    expect((await q<any>(`SELECT status, attempts FROM sms_outbox ORDER BY id`)).map((m) => [m.status, m.attempts])).to.deep.equal([
      ['SENT', 1],
      ['SENT', 1]
    ])
  })

  it('vendor failing: retries up to the limit, then FAILED with the reason and one DELIVERY_FAILED; Retry delivery then delivers', async () => {
    await setSettings({ deliveryRetryLimit: 3 })
    app().services.delivery.simulatorControl({ mode: 'fail', count: 3 })
    const { id } = await buyAndPay()
    await drain()
    let o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'FAILED', delivered: false, delivery_attempts: 3 })
    expect(o.delivery_error).to.match(/simulated failure/)
    expect(await audits('DELIVERY_FAILED', id)).to.have.length(1)
    const admin = await adminClient()
    const overview = await admin.get('/api/delivery/overview')
    expect(overview.body.needsAttention).to.equal(1)
    const listed = await admin.get('/api/orders?deliveryStatus=FAILED')
    expect(listed.body.orders[0]).to.include({ id, deliveryStatus: 'FAILED', deliveryAttempts: 3 })
    expect(listed.body.orders[0].deliveryError).to.match(/simulated failure/)
    // Buyers see that it failed, not the vendor's words.
    const lookup = await new Client().get('/api/orders?phoneNumber=0201112222')
    expect((lookup.body.orders ?? lookup.body)[0].deliveryError).to.match(/^Delivery failed\./)

    const retry = await admin.post(`/api/orders/${id}/retry-delivery`)
    expect(retry.status).to.equal(200)
    expect(retry.body.order).to.include({ deliveryStatus: 'QUEUED', deliveryAttempts: 0 })
    // QUEUED with no attempt: the pump's, so no job besides (both would call the vendor).
    expect(await deliveryJobs()).to.deep.equal([])
    expect((await admin.post(`/api/orders/${id}/retry-delivery`)).status).to.equal(409)
    await drain()
    o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'DELIVERED', delivered: true, delivery_error: null })
    expect((await admin.get('/api/delivery/overview')).body.needsAttention).to.equal(0)
  })

  it('backs off exponentially between attempts (DELIVERY_RETRY_BASE_MS, doubling)', async () => {
    const { services, db } = app()
    const slow = createDeliveryService({
      sequelize: db.sequelize,
      audit: services.audit,
      settings: services.settings,
      sms: services.sms,
      queue: services.queue,
      env: { ...testEnv(), DELIVERY_RETRY_BASE_MS: 60_000 },
      log: services.deps.log,
      events: createDomainEvents()
    })
    slow.simulatorControl({ mode: 'fail', count: 5 })
    const { id } = await buyAndPay()
    const runAt = async () => {
      const [j] = await q<{ run_at: Date }>(`SELECT run_at FROM graphile_worker.jobs WHERE key = :k`, { k: `delivery:${id}` })
      return (j!.run_at.getTime() - Date.now()) / 1000
    }
    await slow.runSend(id)
    expect(await runAt()).to.be.within(55, 61)
    await slow.runSend(id)
    expect(await runAt()).to.be.within(115, 121)
    await slow.runSend(id)
    expect(await runAt()).to.be.within(235, 241)
    expect(await orderOf(id)).to.include({ delivery_status: 'QUEUED', delivery_attempts: 3 })
  })

  it('confirm late: accepted with a reference, delivered when the vendor confirms (status check)', async () => {
    app().services.delivery.simulatorControl({ mode: 'late', count: 1, lateMs: 0 })
    const { id } = await buyAndPay()
    await app().services.delivery.runSend(id)
    let o = await orderOf(id)
    expect(o.delivery_status).to.equal('PROCESSING')
    expect(o.delivery_reference).to.match(/^SIM-/)
    await app().services.delivery.check(id)
    o = await orderOf(id)
    expect(o.delivery_status).to.equal('DELIVERED')
  })

  it('manual mode: no vendor call, the order stays NOT_STARTED and the export takes it as before', async () => {
    await setSettings({ deliveryMode: 'manual' })
    const before = app().services.delivery.simulatorState().calls
    const { id } = await buyAndPay()
    await drain()
    expect(app().services.delivery.simulatorState().calls).to.equal(before)
    expect(await orderOf(id)).to.include({ delivery_status: 'NOT_STARTED', delivered: false })
    // No delivery job to carry it: the order-created text had its own.
    expect((await q<any>(`SELECT status FROM sms_outbox`)).map((m) => m.status)).to.deep.equal(['SENT'])
    const admin = await adminClient()
    const csv = await admin.post('/api/orders/export')
    expect(csv.status).to.equal(200)
    expect(csv.text.trim().split('\r\n')).to.have.length(2) // header and the one order
    expect(await orderOf(id)).to.include({ delivery_status: 'MANUAL', delivered: true, exported: true })
  })

  it('the export leaves orders being delivered automatically alone; Mark delivered sets MANUAL once', async () => {
    const { id } = await buyAndPay() // QUEUED, not yet run
    const admin = await adminClient()
    expect((await admin.post('/api/orders/export')).status).to.equal(404)
    const marked = await admin.patch(`/api/orders/${id}/delivered`)
    expect(marked.status).to.equal(200)
    expect(marked.body.order).to.include({ delivered: true, deliveryStatus: 'MANUAL' })
    await drain() // the queued job finds it delivered by hand: no vendor call
    expect(await orderOf(id)).to.include({ delivery_status: 'MANUAL', delivery_attempts: 0 })
    expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
  })

  it('races: a double-clicked Retry delivery queues once; two confirmations give one ORDER_DELIVERED', async () => {
    app().services.delivery.simulatorControl({ mode: 'fail', count: 5 })
    await setSettings({ deliveryRetryLimit: 1 })
    const { id } = await buyAndPay()
    await drain()
    const admin = await adminClient()
    const [a, b] = await Promise.all([admin.post(`/api/orders/${id}/retry-delivery`), admin.post(`/api/orders/${id}/retry-delivery`)])
    expect([a.status, b.status].sort()).to.deep.equal([200, 409])
    expect(await audits('DELIVERY_RETRIED', id)).to.have.length(1)
    const set = app().services.delivery.setDeliveryStatus
    const results = await Promise.all([
      set(id, 'DELIVERED', { reference: 'X1' }),
      set(id, 'DELIVERED', { reference: 'X2' }),
      set(id, 'DELIVERED', { reference: 'X3' })
    ])
    expect(results.filter(Boolean)).to.have.length(1)
    expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    const sms = await q<any>(`SELECT * FROM sms_outbox WHERE message LIKE '%has been delivered%'`)
    expect(sms).to.have.length(1)
  })

  it('agents see delivery on their orders list and dashboard; the delivered SMS goes to the agent; approving an agent sends the approved SMS', async () => {
    const a = await createAgent()
    const c = new Client()
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    const placed = await c.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0209998888', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(placed.status).to.equal(201)
    await new Client().post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)
    await drain()
    const list = await c.get('/api/orders')
    expect(list.body.orders[0]).to.include({ deliveryStatus: 'DELIVERED', displayStatus: 'DELIVERED', deliveryAttempts: 1, deliveryError: null })
    expect(list.body.orders[0].deliveryReference).to.match(/^SIM-/)
    const sms = await q<any>(`SELECT to_phone FROM sms_outbox WHERE message LIKE '%has been delivered%'`)
    expect(sms.map((r) => r.to_phone)).to.deep.equal([a.agent.phone])

    const pending = await createAgent({ approved: false })
    const admin = await adminClient()
    expect((await admin.patch(`/api/agents/${pending.agent.id}/approve`)).status).to.equal(200)
    const approved = await q<any>(`SELECT to_phone, message FROM sms_outbox WHERE message LIKE '%has been approved%'`)
    expect(approved).to.deep.equal([{ to_phone: pending.agent.phone, message: 'Your Data Hub agent account has been approved. You can now place orders.' }])
  })

  it("hooks run in each change of their scope only: an agent's order is claimed with its hooks even when its job does not say it is an agent's; a customer's claim runs none", async () => {
    // A hook for agents' orders, like the agent webhooks: it must see the claim (PROCESSING) of every
    // agent order in that claim's transaction, whichever way the claim goes (one-statement claim).
    const seen: { id: number; to: string; inTransaction: boolean }[] = []
    // Ended at the test's end: the bus lives as long as the app, which the later files share.
    const stop = app().services.events.on(
      'delivery.changed',
      async ({ order, to }, { transaction: t }) => {
        const [row] = await app().db.sequelize.query<{ x: string }>('SELECT pg_current_xact_id_if_assigned()::text AS x', {
          type: QueryTypes.SELECT,
          transaction: t
        })
        seen.push({ id: order.id, to, inTransaction: !!row?.x })
      },
      { agentOrdersOnly: true }
    )
    const a = await createAgent()
    const c = new Client()
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    const placed = await c.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0209998888', payerPhone: '0241234567', payerNetwork: 'MTN' })
    await new Client().post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)
    const agentOrder = placed.body.order.id as number
    // The job as the settlement wrote it says it is an agent's; drop that hint, as a job queued by the
    // sweep or a retry would not have it: the claim must still run the hook.
    await q(`UPDATE graphile_worker._private_jobs SET payload = json_build_object('orderId', :id) WHERE key = :k RETURNING id`, {
      id: agentOrder,
      k: `delivery:${agentOrder}`
    })
    const { id: customerOrder } = await buyAndPay()
    await drain()
    expect((await orderOf(agentOrder)).delivery_status).to.equal('DELIVERED')
    expect((await orderOf(customerOrder)).delivery_status).to.equal('DELIVERED')
    expect(seen.filter((s) => s.id === agentOrder).map((s) => s.to)).to.deep.equal(['QUEUED', 'PROCESSING', 'DELIVERED'])
    expect(seen.every((s) => s.inTransaction)).to.equal(true)
    expect(seen.filter((s) => s.id === customerOrder)).to.deep.equal([])
    stop()
  })

  it('unpaid orders are never delivered, nor retried', async () => {
    const o = await createOrder({ paymentStatus: 'PENDING' })
    const admin = await adminClient()
    expect((await admin.post(`/api/orders/${o.id}/retry-delivery`)).status).to.equal(409)
    expect(await app().services.delivery.setDeliveryStatus(o.id as number, 'QUEUED')).to.equal(null)
  })

  it('the simulator control answers bad input with 400 and shows its state', async () => {
    const c = new Client()
    expect((await c.post('/api/delivery/simulator', { mode: 'explode' })).status).to.equal(400)
    const ok = await c.post('/api/delivery/simulator', { mode: 'timeout', count: 2 })
    expect(ok.body.simulator).to.include({ mode: 'timeout', remaining: 2 })
    expect((await c.get('/api/delivery/simulator')).body.simulator).to.include({ mode: 'timeout' })
  })
})
