import { expect } from 'chai'
import http from 'node:http'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// Where delivery meets the money: refunds, the wallet and agent webhooks, and
// simulated payments. Each hook runs in the transaction of the delivery status change.
const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const drain = () => app().services.queue.drain()
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number

async function buyAndPay(recipientNumber = '0201112222') {
  const placed = await new Client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(placed.status, placed.text).to.equal(201)
  const tid = placed.body.payment.transactionId as string
  expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
  return { id: placed.body.order.id as number, tid }
}

/** The vendor fails every attempt up to the retry limit: the delivery fails for good. */
async function failingVendor() {
  await app().services.settings.update({ deliveryRetryLimit: 2 }, {})
  app().services.delivery.simulatorControl({ mode: 'fail', count: 10 })
}

describe('delivery meets the money', () => {
  beforeEach(async () => {
    await resetDb()
    app().services.delivery.simulatorControl({ mode: 'deliver' })
  })
  after(() => app().services.delivery.simulatorControl({ mode: 'deliver' }))

  it('a delivery failed for good is refunded once when the shop says so; the order then cannot be retried', async () => {
    await app().services.settings.update({ refundOnDeliveryFailure: true }, {})
    await failingVendor()
    const { id, tid } = await buyAndPay()
    await drain() // delivery attempts, FAILED, then the refund job
    await drain()
    const [order] = await q('SELECT delivery_status, payment_status FROM orders WHERE id = :id', { id })
    expect(order).to.deep.equal({ delivery_status: 'FAILED', payment_status: 'REFUNDED' })
    const refunds = await q('SELECT kind, amount_pesewas, status FROM refunds WHERE transaction_id = :tid', { tid })
    expect(refunds).to.deep.equal([{ kind: 'full', amount_pesewas: 500, status: 'PROCESSED' }])
    const [payment] = await q('SELECT status FROM payments WHERE transaction_id = :tid', { tid })
    expect(payment!.status).to.equal('REFUNDED')
    // The money went back: 'Retry delivery' must not hand out the data as well.
    const admin = await adminClient()
    expect((await admin.post(`/api/orders/${id}/retry-delivery`)).status).to.be.within(400, 499)
  })

  it('with the setting off, a failed delivery is left for the admin: no refund', async () => {
    await failingVendor()
    const { id, tid } = await buyAndPay()
    await drain()
    const [order] = await q('SELECT delivery_status, payment_status FROM orders WHERE id = :id', { id })
    expect(order).to.deep.equal({ delivery_status: 'FAILED', payment_status: 'SUCCESS' })
    expect(await q('SELECT id FROM refunds WHERE transaction_id = :tid', { tid })).to.have.length(0)
  })

  it('an admin cannot refund an order while the vendor may still deliver it', async () => {
    const { id } = await buyAndPay() // QUEUED, not yet run
    const admin = await adminClient()
    const res = await admin.post(`/api/admin/orders/${id}/refund`, { reason: 'Customer asked' })
    expect(res.status).to.equal(409)
    expect(res.body.error).to.equal('This order is being delivered; refund it if the delivery fails')
  })

  it('a wallet order whose delivery fails for good goes back to the wallet once, even with the setting off', async () => {
    const pkg = await createPackage({ network: 'MTN', priceUserPesewas: 500, priceAgentPesewas: 450 })
    const a = await createAgent()
    const admin = await adminClient()
    expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 10, direction: 'CREDIT', reason: 'Opening balance' })).status).to.equal(200)
    await failingVendor()
    const actor = await app().services.auth.loadActor(a.user.id)
    const { order } = await app().services.orders.placeOrder({ packageId: pkg.id, recipientNumber: '0241112233', payFrom: 'wallet' }, { user: actor })
    await drain()
    await drain()
    await drain() // a second run changes nothing
    const entries = await q<{ type: string; amount_pesewas: string }>('SELECT type, amount_pesewas FROM wallet_entries WHERE agent_id = :id ORDER BY id', {
      id: a.agent.id
    })
    expect(entries.map((e) => [e.type, Number(e.amount_pesewas)])).to.deep.equal([
      ['ADJUSTMENT', 1000],
      ['ORDER', -450],
      ['REFUND', 450]
    ])
    const [w] = await q<{ b: string }>('SELECT balance_pesewas AS b FROM wallets WHERE agent_id = :id', { id: a.agent.id })
    expect(Number(w!.b)).to.equal(1000)
    const [o] = await q('SELECT payment_status FROM orders WHERE id = :id', { id: order.id })
    expect(o!.payment_status).to.equal('REFUNDED')
  })

  it("each delivery status change of an agent's order reaches the agent's webhook", async () => {
    const got: { type: string; status: string | undefined }[] = []
    const receiver = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        const event = JSON.parse(body)
        got.push({ type: event.type, status: event.data?.order?.deliveryStatus })
        res.end('ok')
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    try {
      const pkg = await createPackage({ network: 'MTN', priceUserPesewas: 500, priceAgentPesewas: 450 })
      const a = await createAgent()
      const url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`
      await app().db.sequelize.query("UPDATE agents SET webhook_url = :url, webhook_secret = 'whsec_test_secret_0123456789' WHERE id = :id", {
        replacements: { url, id: a.agent.id }
      })
      const admin = await adminClient()
      await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 10, direction: 'CREDIT', reason: 'Opening balance' })
      const actor = await app().services.auth.loadActor(a.user.id)
      await app().services.orders.placeOrder({ packageId: pkg.id, recipientNumber: '0241112244', payFrom: 'wallet' }, { user: actor })
      for (let i = 0; i < 4; i++) await drain()
      const statuses = got.map((g) => g.status)
      expect(got.every((g) => g.type === 'order.updated')).to.equal(true)
      expect(statuses).to.include.members(['QUEUED', 'PROCESSING', 'DELIVERED'])
    } finally {
      receiver.close()
    }
  })

  it('an order paid through the payment simulator only ever goes to the simulator vendor', async () => {
    const { id } = await buyAndPay()
    const [o] = await q('SELECT simulated FROM orders WHERE id = :id', { id })
    expect(o!.simulated).to.equal(true)
    // Even with the settings naming a real vendor for the network.
    await app().services.settings.update({ deliveryVendorMtn: 'skytech' }, {})
    await drain()
    const [after] = await q('SELECT delivery_status, delivery_vendor FROM orders WHERE id = :id', { id })
    expect(after).to.deep.equal({ delivery_status: 'DELIVERED', delivery_vendor: 'simulator' })
  })
})
