import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Running } from '../../server/index.ts'
import { bootOnPaystack, postPaystackWebhook } from '../helpers/instance.ts'
import { startFakePaystack, type FakePaystack } from '../helpers/fake-paystack.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// A second app instance configured with a Paystack key, on the same database, against a local fake Paystack.
describe('payments with Paystack (fake Paystack server)', function () {
  this.timeout(30_000)
  let fake: FakePaystack
  let ps: Running
  // One browser per test: a payment is followed by the browser that started it.
  let browser: Client
  const client = () => browser
  const count = async (sql: string, replacements: Record<string, unknown> = {}) =>
    Number((await app().db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, { replacements, type: QueryTypes.SELECT }))[0]!.n)
  const setSettings = async (s: Record<string, unknown>) => {
    await ps.services.settings.update(s, {})
    app().services.settings.invalidate()
  }
  const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
  const postWebhook = (body: string, signature?: string) => postPaystackWebhook(ps, body, signature)
  /** Lets the next status check through at once (Paystack asks for 10 s between charge checks). */
  const allowCheck = (tid: string) =>
    app().db.sequelize.query(`UPDATE payments SET last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid`, { replacements: { tid } })

  before(async () => {
    fake = await startFakePaystack('sk_test_x')
    ps = await bootOnPaystack(fake)
  })
  after(async () => {
    await ps?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    browser = new Client(ps.url)
    await resetDb()
    ps.services.settings.invalidate()
    fake.requests.length = 0
  })

  it('uses Paystack and hides the simulator (its calls answer 404)', async () => {
    expect(ps.services.payments.providerName).to.equal('paystack')
    expect((await client().get('/api/simulator/prompts?phone=0241234567')).status).to.equal(404)
    expect((await client().post('/api/simulator/payments/1/approve')).status).to.equal(404)
    expect((await client().get('/simulator/phone')).status).to.equal(404)
  })

  it('mobile money: charge with the provider code and pesewas, status by transaction/verify, no faster than allowed', async () => {
    const res = await client().post('/api/orders', {
      packageId: await mtn1gb(),
      recipientNumber: '0201112222',
      payerPhone: '0551234567',
      payerNetwork: 'TELECEL',
      amount: 0.01
    })
    expect(res.status).to.equal(201)
    const tid = res.body.payment.transactionId
    expect(res.body.payment).to.include({ paymentStatus: 'IN_PROGRESS', gateway: 'ussd', provider: 'paystack' })
    const charge = fake.requests.find((r) => r.path === '/charge')!
    expect(charge.auth).to.equal('Bearer sk_test_x')
    expect(charge.body).to.deep.include({ amount: 500, currency: 'GHS', reference: tid })
    expect(charge.body.mobile_money).to.deep.equal({ phone: '0551234567', provider: 'vod' })

    fake.complete(tid, 'success')
    // Asked again at once: Paystack wants 10 s between checks, so the gateway is not called.
    const soon = await client().get(`/api/payment/status/${tid}`)
    expect(soon.body.paymentStatus).to.equal('IN_PROGRESS')
    expect(fake.requests.filter((r) => r.path === `/transaction/verify/${tid}`)).to.have.length(0)
    await allowCheck(tid)
    const later = await client().get(`/api/payment/status/${tid}`)
    expect(later.body.paymentStatus).to.equal('SUCCESS')
    expect(fake.requests.filter((r) => r.path === `/transaction/verify/${tid}`)).to.have.length(1)
    const done = await client().patch(`/api/orders/${res.body.id}`, { paymentStatus: 'SUCCESS' })
    expect(done.body.currentStatus).to.equal('SUCCESS')
  })

  it('card: initialize -> authorization_url -> callback verify', async () => {
    await setSettings({ paymentGateway: 'paystack' })
    const res = await client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', email: 'kojo@example.com' })
    expect(res.status).to.equal(201)
    const tid = res.body.payment.transactionId
    expect(res.body.payment.authorizationUrl).to.match(/^https:\/\/checkout\.paystack\.com\//)
    const init = fake.requests.find((r) => r.path === '/transaction/initialize')!
    expect(init.body).to.deep.include({ email: 'kojo@example.com', amount: 500, currency: 'GHS', reference: tid, callback_url: `${ps.url}/payment-callback` })
    const before = await client().get(`/api/webhooks/paystack?trxref=${tid}&reference=${tid}`)
    expect(before.body).to.include({ status: 'pending' })
    fake.complete(tid, 'success')
    const cb = await client().get(`/api/webhooks/paystack?trxref=${tid}&reference=${tid}`)
    expect(cb.body).to.include({ status: 'success', orderId: res.body.id, type: 'data' })
    expect(fake.requests.filter((r) => r.path === `/transaction/verify/${tid}`).length).to.equal(2)
  })

  it('a gateway success for less than the amount due fails the payment', async () => {
    await setSettings({ paymentGateway: 'paystack' })
    const res = await client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', email: 'kojo@example.com' })
    const tid = res.body.payment.transactionId
    fake.complete(tid, 'success', { amount: 1 })
    const cb = await client().get(`/api/webhooks/paystack?reference=${tid}`)
    expect(cb.body.status).to.equal('failed')
    expect(await count(`orders WHERE payment_status = 'SUCCESS'`)).to.equal(0)
    expect(await count('commissions')).to.equal(0)
  })

  it('webhook with a missing or wrong signature: 401 and nothing changes', async () => {
    const res = await client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
    const tid = res.body.payment.transactionId
    const { body, signature } = fake.webhook(tid)
    expect((await postWebhook(body)).status).to.equal(401)
    expect((await postWebhook(body, 'ab'.repeat(64))).status).to.equal(401)
    expect((await postWebhook(body, signature.slice(0, -2) + (signature.endsWith('00') ? '11' : '00'))).status).to.equal(401)
    const tampered = body.replace('"amount":500', '"amount":50000')
    expect((await postWebhook(tampered, signature)).status).to.equal(401)
    expect((await postWebhook('{"event":', signature)).status).to.equal(400)
    expect((await app().services.payments.load(tid))!.status).to.equal('IN_PROGRESS')
    expect(await count(`audit_logs WHERE action LIKE 'PAYMENT_%'`)).to.equal(0)
    const ok = await postWebhook(body, signature)
    expect(ok.status).to.equal(200)
    expect((await app().services.payments.load(tid))!.status).to.equal('SUCCESS')
  })

  it('20 simultaneous duplicate webhooks plus a Complete Order: one SUCCESS, one commission, one audit entry', async () => {
    const res = await client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
    const tid = res.body.payment.transactionId
    fake.complete(tid, 'success')
    await allowCheck(tid)
    const { body, signature } = fake.webhook(tid)
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => postWebhook(body, signature).then((r) => r.status)),
      client()
        .patch(`/api/orders/${res.body.id}`, { paymentStatus: 'SUCCESS' })
        .then((r) => r.status)
    ])
    expect(results.every((s) => s === 200)).to.equal(true)
    expect(await count(`orders WHERE payment_status = 'SUCCESS'`)).to.equal(1)
    expect(await count(`payments WHERE status = 'SUCCESS'`)).to.equal(1)
    expect(await count('commissions')).to.equal(1)
    expect(await count(`audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id = :tid`, { tid })).to.equal(1)
    expect(await count('sms_outbox')).to.equal(1)
  })

  it('ignores signed events it has no payment for, and non-success events', async () => {
    const unknown = JSON.stringify({ event: 'charge.success', data: { reference: '999999999', amount: 500, currency: 'GHS', status: 'success' } })
    expect((await postWebhook(unknown, fake.sign(unknown))).status).to.equal(200)
    const other = JSON.stringify({ event: 'transfer.success', data: { reference: 'x' } })
    expect((await postWebhook(other, fake.sign(other))).status).to.equal(200)
    expect(await count(`audit_logs WHERE action LIKE 'PAYMENT_%'`)).to.equal(0)
  })

  it('AFA by card: paid through Paystack, then recorded', async () => {
    await setSettings({ paymentGateway: 'paystack', afaRegistrationFee: 12.5 })
    const form = { fullName: 'Yaw Boateng', ghCard: 'GHA-000111222-3', phone: '0241112222', email: 'yaw@example.com' }
    const pay = await client().post('/api/payment/request', { type: 'afa_registration', ...form })
    expect(pay.status).to.equal(200)
    expect(fake.requests.find((r) => r.path === '/transaction/initialize')!.body.amount).to.equal(1250)
    fake.complete(pay.body.transactionId, 'success')
    const reg = await client().post('/api/afa', { ...form, paymentTransactionId: pay.body.transactionId })
    expect(reg.status).to.equal(201)
    expect(await count('afa_registrations')).to.equal(1)
  })
})
