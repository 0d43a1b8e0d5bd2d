import { expect } from 'chai'
import net from 'node:net'
import pg from 'pg'
import { connect } from '../../models/db.ts'
import { createDeliveryService } from '../../server/services/delivery/index.ts'
import { createDomainEvents } from '../../server/services/events/index.ts'
import { LIVENESS_PREFIX } from '../../server/services/queue/index.ts'
import { deliveryWith } from '../helpers/delivery.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'
import { q, drain, buyAndPay, orderOf, audits } from '../helpers/delivery-steps.ts'

// With the built-in simulator vendor (no vendor keys in the test app, no delay).

describe('delivery (simulator vendor)', () => {
  beforeEach(resetDb)

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
})
