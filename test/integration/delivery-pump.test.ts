import { expect } from 'chai'
import pg from 'pg'
import { deliveryWith } from '../helpers/delivery.ts'
import { app, resetDb } from '../helpers/server.ts'
import { q, drain, buyAndPay, orderOf, audits } from '../helpers/delivery-steps.ts'

// With the built-in simulator vendor (no vendor keys in the test app, no delay).

describe('delivery (simulator vendor)', () => {
  beforeEach(resetDb)

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
})
