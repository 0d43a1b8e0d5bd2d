import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { connect } from '../../models/db.ts'
import { idempotencyKeyFor } from '../../server/services/delivery/vendor.ts'
import { queueOnPaymentSets } from '../../server/services/delivery/index.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { startFakeSkytech, type FakeSkytech } from '../fakes/skytech.ts'
import { createOrder } from '../helpers/factories.ts'
import { startChildServer } from '../helpers/child-server.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

/** n paid orders queued for delivery exactly as settlement queues them (the same SET items and delivery.onPaid, in one transaction). */
async function queuePaidOrders(n: number): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < n; i++) {
    const o = await createOrder({
      paymentStatus: 'SUCCESS',
      recipientNumber: `024${String(1000000 + i)}`,
      paymentTransactionId: `88${String(i).padStart(10, '0')}`
    })
    ids.push(o.id as number)
  }
  // The settlement's own UPDATE queues the order (queueOnPaymentSets), then onPaid adds the job.
  await app().db.sequelize.transaction(async (t) => {
    for (const id of ids) {
      const [order] = await app().db.sequelize.query<any>(`UPDATE orders SET ${queueOnPaymentSets('true')} WHERE id = :id RETURNING *`, {
        replacements: { id },
        type: QueryTypes.SELECT,
        transaction: t
      })
      await app().services.delivery.onPaid(order, t)
    }
  })
  return ids
}

async function waitFor(what: string, check: () => Promise<boolean>, ms: number) {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) {
      const st = await q<any>(`SELECT delivery_status, count(*) AS n FROM orders GROUP BY 1`)
      const jobs = await q<any>(`SELECT task_identifier, attempts, last_error, locked_at IS NOT NULL AS locked, run_at FROM graphile_worker.jobs LIMIT 5`)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(st)} ${JSON.stringify(jobs)}`)
    }
    await new Promise((r) => setTimeout(r, 100))
  }
}

const delivered = async () => Number((await q<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE delivery_status = 'DELIVERED'`))[0]!.n)

/** Each order reached the vendor under its own key exactly once, with the reference we recorded. */
async function expectDeliveredOnce(fake: FakeSkytech, ids: number[]) {
  const orders = await q<any>('SELECT * FROM orders WHERE id IN (:ids) ORDER BY id', { ids })
  expect(orders.every((o) => o.delivery_status === 'DELIVERED' && o.delivered)).to.equal(true)
  expect(fake.orders.size).to.equal(ids.length)
  const byKey = new Map([...fake.orders.values()].map((o) => [o.key, o]))
  for (const o of orders) {
    const sent = byKey.get(idempotencyKeyFor(o))
    expect(sent, `order ${o.id} at the vendor`).to.not.equal(undefined)
    expect(sent!.ref).to.equal(o.delivery_reference)
    expect(sent!.recipient).to.equal(o.recipient_number)
  }
  expect(new Set([...fake.orders.values()].map((o) => o.recipient)).size).to.equal(ids.length)
  const [{ n }] = (await q<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE action = 'ORDER_DELIVERED' AND resource_id IN (:ids)`, {
    ids: ids.map(String)
  })) as [{ n: string }]
  expect(Number(n)).to.equal(ids.length)
}

describe('delivery under crashes and several instances (SkyTech fake)', function () {
  this.timeout(90_000)
  let fake: FakeSkytech
  before(async () => {
    fake = await startFakeSkytech()
  })
  after(async () => fake?.close())
  beforeEach(async () => {
    await resetDb()
    fake.reset()
  })
  const vendorEnv = () => ({ SKYTECH_API_KEY: fake.key, SKYTECH_API_SECRET: fake.secret, SKYTECH_BASE_URL: fake.url, DELIVERY_CHECK_AFTER_MS: '0' })

  it('kill -9 with 50 deliveries queued, start again: every order delivered exactly once', async () => {
    fake.delayMs = 120
    const ids = await queuePaidOrders(50)
    const first = await startChildServer(app().db.url, { ...vendorEnv(), DELIVERY_STALE_SECONDS: '2', QUEUE_CONCURRENCY: '8' })
    await waitFor('the first vendor calls', async () => fake.callsPerKey.size >= 12, 30_000)
    await first.kill('SIGKILL')
    const mid = await q<{ delivery_status: string; n: string }>(`SELECT delivery_status, count(*) AS n FROM orders GROUP BY 1`)
    const inFlight = mid.filter((r) => r.delivery_status !== 'DELIVERED').reduce((a, r) => a + Number(r.n), 0)
    expect(inFlight, 'orders left undelivered by the crash').to.be.greaterThan(0)

    const second = await startChildServer(app().db.url, { ...vendorEnv(), DELIVERY_STALE_SECONDS: '2' })
    try {
      await waitFor('all 50 delivered after the restart', async () => (await delivered()) === 50, 45_000)
    } finally {
      await second.kill('SIGTERM')
    }
    await expectDeliveredOnce(fake, ids)
    const repeats = [...fake.callsPerKey.values()].filter((n) => n > 1).length
    console.log(`      (crash: ${inFlight} left in flight; ${repeats} orders asked twice under their key, none delivered twice)`)
  })

  it('kill -9 with 10 deliveries in flight, the stale-order sweep far off: all 10 delivered within 30 s of the restart, each once', async () => {
    // Each vendor call hangs long enough that the process dies with all ten asked and none answered.
    fake.delayMs = 4000
    const ids = await queuePaidOrders(10)
    const first = await startChildServer(app().db.url, { ...vendorEnv(), QUEUE_CONCURRENCY: '8' })
    await waitFor('all ten vendor calls under way', async () => fake.callsPerKey.size >= 10, 30_000)
    await first.kill('SIGKILL')
    expect(await delivered(), 'delivered before the crash').to.equal(0)
    fake.delayMs = 50

    const second = await startChildServer(app().db.url, vendorEnv())
    const restarted = Date.now()
    try {
      await waitFor('all 10 delivered after the restart', async () => (await delivered()) === 10, 30_000)
    } finally {
      await second.kill('SIGTERM')
    }
    const lag = (Date.now() - restarted) / 1000
    expect(lag).to.be.lessThan(30)
    await expectDeliveredOnce(fake, ids)
    console.log(`      (kill -9 with 10 in flight: all delivered ${lag.toFixed(1)} s after the restart, each with the reference of its first call)`)
  })

  it('two instances on one database: each order delivered once', async () => {
    fake.delayMs = 20
    const ids = await queuePaidOrders(50)
    const instances: Running[] = []
    for (let i = 0; i < 2; i++) {
      const { sequelize, models } = connect(app().db.url)
      const env = { ...testEnv(), PORT: 0, JOBS_ENABLED: true, ...vendorEnv(), DELIVERY_CHECK_AFTER_MS: 0 }
      instances.push(await boot({ env, log: createLogger('silent'), db: { sequelize, models, url: app().db.url, close: () => sequelize.close() } }))
    }
    try {
      await waitFor('all 50 delivered by two instances', async () => (await delivered()) === 50, 45_000)
    } finally {
      await Promise.all(instances.map((r) => r.stop()))
    }
    await expectDeliveredOnce(fake, ids)
    expect(
      [...fake.callsPerKey.values()].every((n) => n === 1),
      'one vendor call per order'
    ).to.equal(true)
  })
})
