import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { createAgent, createUser, count, setSettings, approve, decline, buy } from '../helpers/storefront-api.ts'

// Storefront API against the built-in payment simulator (no Paystack key in the test app).

describe('storefront API: payment status, Complete Order and the simulator', () => {
  beforeEach(resetDb)

  it('PATCH before the gateway confirms is not SUCCESS and says so; after approval it is, once', async () => {
    const { body, client: shopper } = await buy()
    const tid = body.payment.transactionId
    const early = await new Client().patch(`/api/orders/${body.id}`, { paymentStatus: 'SUCCESS' })
    expect(early.status).to.equal(200)
    expect(early.body).to.include({ message: 'Payment must be successful before finalizing order', currentStatus: 'PENDING' })
    expect(early.body.info).to.be.a('string').and.not.equal('')
    expect(JSON.stringify(early.body)).to.not.include('0201112222')
    expect((await app().db.models.Order.findByPk(body.id))!.get('paymentStatus')).to.equal('PENDING')

    const st1 = await shopper.get(`/api/payment/status/${tid}`)
    expect(st1.body).to.include({ paymentStatus: 'PENDING' })
    const ok = await approve(tid)
    expect(ok.status).to.equal(200)
    expect(ok.body).to.include({ paymentStatus: 'SUCCESS' })
    const st2 = await shopper.get(`/api/payment/status/${tid}`)
    expect(st2.body).to.include({ paymentStatus: 'SUCCESS', extTransactionId: `SIM-${tid}` })

    const done = await new Client().patch(`/api/orders/${body.id}`, { paymentStatus: 'SUCCESS' })
    expect(done.body).to.include({ currentStatus: 'SUCCESS', message: 'Order placed successfully! Your data will be delivered shortly.' })
    await new Client().patch(`/api/orders/${body.id}`, { paymentStatus: 'SUCCESS' })
    expect(await count(`commissions WHERE order_id = :id`, { id: body.id })).to.equal(1)
    const [commission] = (await app().db.models.Commission.findAll({ raw: true })) as any[]
    expect(commission).to.include({ originalAmountPesewas: 500, commissionAmountPesewas: 50, agentId: null, commissionType: 'PERCENTAGE' })
    expect(await count(`audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id = :tid`, { tid })).to.equal(1)
    const sms = (await app().db.models.SmsOutbox.findAll({ raw: true })) as any[]
    expect(sms).to.have.length(1)
    expect(sms[0]).to.include({ toPhone: '0241234567', message: 'Your order for 1.0GB MTN data to 0201112222 has been received.' })
    expect((await approve(tid)).status).to.equal(409)
  })

  it('a declined prompt fails the order, audits PAYMENT_FAILED, and records no commission', async () => {
    const { body, client: shopper } = await buy()
    const tid = body.payment.transactionId
    const res = await decline(tid)
    expect(res.body.paymentStatus).to.equal('FAILED')
    const st = await shopper.get(`/api/payment/status/${tid}`)
    expect(st.body.paymentStatus).to.equal('FAILED')
    const patch = await new Client().patch(`/api/orders/${body.id}`, { paymentStatus: 'SUCCESS' })
    expect(patch.body).to.include({ currentStatus: 'FAILED', message: 'Payment must be successful before finalizing order' })
    expect(await count('commissions')).to.equal(0)
    expect(await count(`audit_logs WHERE action = 'PAYMENT_FAILED'`)).to.equal(1)
    expect((await approve(tid)).status).to.equal(409)
  })

  it('commission follows settings: fixed amounts, agents attributed, nothing when disabled', async () => {
    await setSettings({ commissionType: 'FIXED', commissionFixedAmount: 0.75 })
    const a = await createAgent()
    const c = new Client()
    await c.login(a.user.email, a.password)
    const r1 = await buy({}, c)
    await approve(r1.body.payment.transactionId)
    const [row] = (await app().db.models.Commission.findAll({ raw: true })) as any[]
    expect(row).to.include({ commissionAmountPesewas: 75, agentId: a.agent.id, commissionType: 'FIXED' })
    expect(((await app().db.models.SmsOutbox.findAll({ raw: true })) as any[])[0].toPhone).to.equal(a.agent.phone)
    await setSettings({ commissionEnabled: false })
    const r2 = await buy()
    await approve(r2.body.payment.transactionId)
    expect(await count('commissions')).to.equal(1)
  })

  it('clients cannot set a status: PATCH with anything but SUCCESS, or for a bad id, is refused', async () => {
    const { body } = await buy()
    expect((await new Client().patch(`/api/orders/${body.id}`, { paymentStatus: 'FAILED' })).status).to.equal(400)
    expect((await new Client().patch(`/api/orders/${body.id}`, {})).status).to.equal(400)
    expect((await new Client().patch('/api/orders/abc', { paymentStatus: 'SUCCESS' })).status).to.equal(400)
    const missing = await new Client().patch('/api/orders/999999', { paymentStatus: 'SUCCESS' })
    expect(missing.status).to.equal(404)
    expect(missing.body.error).to.equal('No order ID found. Please try the payment process again.')
    expect((await app().db.models.Order.findByPk(body.id))!.get('paymentStatus')).to.equal('PENDING')
  })

  it("keeps a signed-in buyer's order and payment to themselves", async () => {
    const owner = await createUser()
    const c = new Client()
    await c.login(owner.email, owner.password)
    const { body } = await buy({}, c)
    const other = await createUser()
    const o = new Client()
    await o.login(other.email, other.password)
    expect((await o.patch(`/api/orders/${body.id}`, { paymentStatus: 'SUCCESS' })).status).to.equal(404)
    expect((await o.get(`/api/payment/status/${body.payment.transactionId}`)).status).to.equal(404)
    expect((await c.get(`/api/payment/status/${body.payment.transactionId}`)).status).to.equal(200)
  })

  it('status of an unknown or malformed transaction id is 404 / 400', async () => {
    expect((await new Client().get('/api/payment/status/424242')).status).to.equal(404)
    expect((await new Client().get(`/api/payment/status/${encodeURIComponent("1' OR '1'='1")}`)).status).to.equal(400)
  })

  it('lists pending prompts by phone (either spelling) and expires unanswered ones', async () => {
    const { body, client: shopper } = await buy()
    const tid = body.payment.transactionId
    const prompts = await new Client().get('/api/simulator/prompts?phone=233241234567')
    expect(prompts.body.prompts.map((p: any) => p.reference)).to.deep.equal([tid])
    expect(prompts.body.prompts[0]).to.include({ amount: 5, network: 'MTN' })
    await app().db.sequelize.query(`UPDATE payments SET created_at = now() - interval '2 hours' WHERE transaction_id = :tid`, { replacements: { tid } })
    expect((await new Client().get('/api/simulator/prompts?phone=0241234567')).body.prompts).to.deep.equal([])
    const late = await approve(tid)
    expect(late.status).to.equal(409)
    expect(late.body.error).to.match(/expired/)
    expect((await shopper.get(`/api/payment/status/${tid}`)).body.paymentStatus).to.equal('EXPIRED')
    expect((await app().db.models.Order.findByPk(body.id))!.get('paymentStatus')).to.equal('EXPIRED')
    expect((await new Client().post('/api/simulator/payments/000/approve')).status).to.equal(404)
  })

  it('expireStale closes old open payments and leaves fresh ones', async () => {
    const old = await buy()
    const fresh = await buy({ recipientNumber: '0203334444' })
    await app().db.sequelize.query(`UPDATE payments SET created_at = now() - interval '3 hours' WHERE transaction_id = :tid`, {
      replacements: { tid: old.body.payment.transactionId }
    })
    const out = await app().services.payments.expireStale(60)
    expect(out.checked).to.equal(1)
    expect((await app().services.payments.load(old.body.payment.transactionId))!.status).to.equal('EXPIRED')
    expect((await app().services.payments.load(fresh.body.payment.transactionId))!.status).to.equal('PENDING')
  })

  it('the verification callback reports success with the destination type; the Paystack webhook is 404 without Paystack', async () => {
    const { body, client: shopper } = await buy()
    const tid = body.payment.transactionId
    const pending = await shopper.get(`/api/webhooks/paystack?trxref=${tid}&reference=${tid}`)
    expect(pending.body).to.include({ status: 'pending', orderId: body.id, type: 'data' })
    await approve(tid)
    const done = await shopper.get(`/api/webhooks/paystack?trxref=${tid}&reference=${tid}`)
    expect(done.body).to.include({ status: 'success', message: 'Payment completed successfully!', orderId: body.id, type: 'data', afaId: null })
    expect((await new Client().get('/api/webhooks/paystack')).status).to.equal(400)
    expect((await new Client().get('/api/webhooks/paystack?reference=31337')).status).to.equal(404)
    expect((await new Client().post('/api/webhooks/paystack', { event: 'charge.success', data: { reference: tid } })).status).to.equal(404)
  })

  it('20 duplicate approvals, status checks and Complete Orders at once settle once', async () => {
    const { body, client: shopper } = await buy()
    const tid = body.payment.transactionId
    await app().db.sequelize.query(`UPDATE payments SET details = jsonb_set(details, '{simulator}', '{"decision":"APPROVED"}') WHERE transaction_id = :tid`, {
      replacements: { tid }
    })
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 2 ? shopper.get(`/api/payment/status/${tid}`) : new Client().patch(`/api/orders/${body.id}`, { paymentStatus: 'SUCCESS' })
    )
    const results = await Promise.all(calls)
    for (const r of results) expect(r.status).to.equal(200)
    expect(await count(`orders WHERE payment_status = 'SUCCESS'`)).to.equal(1)
    expect(await count('commissions')).to.equal(1)
    expect(await count(`audit_logs WHERE action = 'PAYMENT_SUCCESS'`)).to.equal(1)
    expect(await count('sms_outbox')).to.equal(1)
  })
})
