import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { connect } from '../../models/db.ts'
import type { Env } from '../../server/env.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { startFakeSkytech, type FakeSkytech } from '../fakes/skytech.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

// The SkyTech GH adapter against a local fake speaking its API, on an instance configured for it.
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const orderOf = async (id: number) => (await q<any>('SELECT * FROM orders WHERE id = :id', { id }))[0]
/** Paid as if through a real gateway: simulated money never reaches a real vendor. */
async function markReal(orderId: number, transactionId: string) {
  await app().db.sequelize.query('UPDATE orders SET simulated = false WHERE id = :id', { replacements: { id: orderId } })
  await app().db.sequelize.query('UPDATE payments SET simulated = false WHERE transaction_id = :t', { replacements: { t: transactionId } })
}

async function instance(env: Partial<Env>): Promise<Running> {
  const { sequelize, models } = connect(app().db.url)
  return boot({
    env: { ...testEnv(), PORT: 0, ...env },
    log: createLogger('silent'),
    db: { sequelize, models, url: app().db.url, close: () => sequelize.close() }
  })
}

describe('delivery through SkyTech GH (fake vendor)', function () {
  this.timeout(30_000)
  let fake: FakeSkytech
  let sky: Running
  before(async () => {
    fake = await startFakeSkytech()
    sky = await instance({
      SKYTECH_API_KEY: fake.key,
      SKYTECH_API_SECRET: fake.secret,
      SKYTECH_BASE_URL: fake.url,
      DELIVERY_CHECK_AFTER_MS: 0,
      DELIVERY_VENDOR_TIMEOUT_MS: 400
    })
  })
  after(async () => {
    await sky?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    await resetDb()
    sky.services.settings.invalidate()
    fake.reset()
  })
  const drain = () => sky.services.queue.drain()

  async function buyAndPay(recipientNumber = '0241112222') {
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id')
    const placed = await new Client(sky.url).post('/api/orders', { packageId: pkg, recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(placed.status).to.equal(201)
    // This file is about the vendor, not the gateway (money-safety tests cover Paystack).
    await markReal(placed.body.order.id, placed.body.payment.transactionId)
    expect((await new Client(sky.url).post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)).status).to.equal(200)
    return placed.body.order.id as number
  }

  it('sends a signed order keyed on the order, then confirms it by status: DELIVERED with the vendor reference', async () => {
    const id = await buyAndPay()
    await drain()
    const o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'DELIVERED', delivery_vendor: 'skytech', delivery_attempts: 1, delivered: true })
    const ref = o.delivery_reference as string
    const sent = [...fake.orders.values()]
    expect(sent).to.have.length(1)
    expect(sent[0]).to.include({ network: 'MTN', recipient: '0241112222', capacity: 1, key: `datahub-${id}-${o.payment_transaction_id}` })
    expect(fake.requests.every((r) => r.signatureOk)).to.equal(true)
    expect(sent[0]!.ref).to.equal(ref)
    expect(fake.requests.map((r) => `${r.method} ${r.path}`)).to.deep.equal(['POST /api/v1/orders', `GET /api/v1/orders/${ref}`])
  })

  it('500s: retries with the same key, then FAILED with the reason after the limit; Retry delivery delivers it once', async () => {
    await sky.services.settings.update({ deliveryRetryLimit: 3 }, {})
    fake.failNext(3)
    const id = await buyAndPay()
    await drain()
    let o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'FAILED', delivery_attempts: 3, delivery_error: 'SkyTech: Upstream network error' })
    expect([...fake.callsPerKey.values()]).to.deep.equal([3])
    expect(fake.orders.size).to.equal(0)
    const admin = await adminClient()
    expect((await admin.post(`/api/orders/${id}/retry-delivery`)).status).to.equal(200)
    await drain()
    o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 1 })
    expect(fake.orders.size).to.equal(1)
    expect([...fake.callsPerKey.values()]).to.deep.equal([4])
  })

  it('a timeout is an unknown outcome: asked again with the same key, delivered once', async () => {
    fake.failNext(1, 'hang')
    const id = await buyAndPay()
    await drain()
    expect(await orderOf(id)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 2 })
    expect(fake.orders.size).to.equal(1)
    expect([...fake.callsPerKey.values()]).to.deep.equal([2])
  })

  it('a refusal (4xx) fails at once, without retries', async () => {
    const id = await buyAndPay('0241112222')
    await app().db.sequelize.query(`UPDATE orders SET recipient_number = '12' WHERE id = :id`, { replacements: { id } })
    await drain()
    const o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'FAILED', delivery_attempts: 1 })
    expect(o.delivery_error).to.match(/^SkyTech: network, recipient/)
  })

  it('confirms later: the vendor callback makes us ask the vendor, never trusting the body', async () => {
    fake.completeAfterMs = null
    const id = await buyAndPay()
    await drain()
    const { delivery_status: st, delivery_reference: ref } = await orderOf(id)
    expect(st).to.equal('PROCESSING')
    expect(ref).to.match(/^SKY\d{6}$/)
    const c = new Client(sky.url)
    // A forged 'delivered' callback while the vendor still says processing changes nothing.
    expect((await c.post('/api/webhooks/delivery/skytech', { ref, status: 'completed' })).body).to.include({ received: true, deliveryStatus: 'PROCESSING' })
    fake.complete(ref)
    const cb = await c.post('/api/webhooks/delivery/skytech', { ref, status: 'completed' })
    expect(cb.body).to.include({ received: true, orderId: id, deliveryStatus: 'DELIVERED' })
    expect((await c.post('/api/webhooks/delivery/skytech', { ref: 'NOPE' })).body).to.deep.equal({ received: true, known: false })
    expect((await c.post('/api/webhooks/delivery/skytech', {})).status).to.equal(400)
    expect((await c.post('/api/webhooks/delivery/nobody', { ref: 'x' })).status).to.equal(404)
  })

  it('the status-sync job settles accepted orders the vendor finished (here: failed)', async () => {
    fake.completeAfterMs = null
    const id = await buyAndPay()
    await drain()
    fake.complete((await orderOf(id)).delivery_reference, 'failed')
    await app().db.sequelize.query(`UPDATE orders SET updated_at = now() - interval '1 hour' WHERE id = :id`, { replacements: { id } })
    const r = await sky.services.delivery.sync()
    expect(r.checked).to.equal(1)
    const o = await orderOf(id)
    expect(o.delivery_status).to.equal('FAILED')
    expect(o.delivery_error).to.match(/failed/)
  })

  it('a shop order the vendor accepts (PROCESSING) and later reports failed for good earns its agent no margin, neither while it waits nor after', async () => {
    await sky.services.settings.update({ shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 20 }, {})
    const pkg = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 500, priceAgentPesewas: 450 })
    const a = await createAgent()
    const agent = new Client(sky.url)
    expect((await agent.login(a.user.email, a.password)).status).to.equal(200)
    expect(
      (await agent.put('/api/shops/mine', { slug: 'ama-data', name: 'Ama Data', description: 'Bundles', whatsapp: '0241234567', accent: '#1565c0' })).status
    ).to.equal(200)
    expect((await agent.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })).status).to.equal(200)
    const placed = await new Client(sky.url).post('/api/shops/ama-data/orders', {
      packageId: pkg.id,
      price: 5.2,
      recipientNumber: '0241112222',
      payerPhone: '0241234567',
      payerNetwork: 'MTN'
    })
    expect(placed.status, placed.text).to.equal(201)
    const id = placed.body.order.id as number
    await markReal(id, placed.body.payment.transactionId)
    expect((await new Client(sky.url).post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)).status).to.equal(200)
    const earned = async () => {
      const res = await agent.get('/api/wallet/earnings')
      expect(res.status, res.text).to.equal(200)
      return { available: res.body.available, entries: res.body.entries.length }
    }

    fake.completeAfterMs = null
    await drain()
    const waiting = await orderOf(id)
    expect(waiting).to.include({ delivery_status: 'PROCESSING', shop_agent_id: a.agent.id })
    expect(Number(waiting.shop_margin_pesewas)).to.equal(70)
    expect(await earned()).to.deep.equal({ available: 0, entries: 0 })

    fake.complete(waiting.delivery_reference, 'failed')
    expect((await new Client(sky.url).post('/api/webhooks/delivery/skytech', { ref: waiting.delivery_reference, status: 'failed' })).body).to.include({
      orderId: id,
      deliveryStatus: 'FAILED'
    })
    await drain()
    expect((await orderOf(id)).delivery_status).to.equal('FAILED')
    expect(await earned()).to.deep.equal({ available: 0, entries: 0 })
    expect(await q(`SELECT id FROM audit_logs WHERE action = 'SHOP_MARGIN_CREDITED'`)).to.have.length(0)
  })

  it('the overview shows the SkyTech balance and warns below the threshold', async () => {
    await sky.services.settings.update({ deliveryLowBalanceThreshold: 600 }, {})
    fake.balance = 500
    const ov = await sky.services.delivery.overview()
    expect(ov.balances).to.deep.equal([{ vendor: 'skytech', balance: 500, low: true, error: null }])
  })
})
