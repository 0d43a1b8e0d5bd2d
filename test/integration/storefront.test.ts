import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import * as factories from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// Storefront API against the built-in payment simulator (no Paystack key in the test app).
const createAgent = (over?: Record<string, any>): Promise<any> => factories.createAgent(over)
const createPackage = (over?: Record<string, any>): Promise<any> => factories.createPackage(over)
const createUser = (over?: Record<string, any>): Promise<any> => factories.createUser(over)

const count = async (sql: string, replacements: Record<string, unknown> = {}) =>
  Number((await app().db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, { replacements, type: QueryTypes.SELECT }))[0]!.n)
const setSettings = (s: Record<string, unknown>) => app().services.settings.update(s, {})
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)
const decline = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/decline`)
const momo = { payerPhone: '0241234567', payerNetwork: 'MTN' }

/** Places an order from `client` (a browser); the answer carries that client, the only one that may follow the payment. */
async function buy(over: Record<string, unknown> = {}, client = new Client()) {
  return Object.assign(await client.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', ...momo, ...over }), { client })
}

describe('storefront API: packages', () => {
  beforeEach(resetDb)

  it('lists the seeded section 9 packages, active only, by ascending size, filtered by network', async () => {
    await createPackage({ network: 'MTN', sizeMb: 512, priceUserPesewas: 300, active: false })
    const all = await new Client().get('/api/packages')
    expect(all.status).to.equal(200)
    expect(all.body).to.have.length(9)
    const sizes = all.body.map((p: any) => p.sizeMB)
    expect(sizes).to.deep.equal([...sizes].sort((a: number, b: number) => a - b))
    const mtn = await new Client().get('/api/packages?network=MTN')
    expect(mtn.body.map((p: any) => [p.sizeMB, p.priceUser])).to.deep.equal([
      [1024, 5],
      [3072, 15],
      [10240, 50]
    ])
    expect(mtn.body[0]).to.include({ network: 'MTN', name: '1GB daily', active: true })
    const tel = await new Client().get('/api/packages?network=telecel')
    expect(tel.body.map((p: any) => p.priceUser)).to.deep.equal([4.5, 14, 45])
  })

  it('answers a bad network with 400', async () => {
    const res = await new Client().get('/api/packages?network=VODA')
    expect(res.status).to.equal(400)
    expect(res.body.error).to.match(/MTN, TELECEL or AIRTELTIGO/)
  })
})

describe('storefront API: placing orders', () => {
  beforeEach(resetDb)

  it('prices on the server: a client amount of 0.01 and status SUCCESS for a 5.00 package record 5.00 PENDING', async () => {
    const res = await buy({ amount: 0.01, paymentStatus: 'SUCCESS', transactionId: '123456789012345' })
    expect(res.status).to.equal(201)
    expect(res.body.order).to.include({
      amount: 5,
      paymentStatus: 'PENDING',
      recipientNumber: '0201112222',
      network: 'MTN',
      dataSizeMB: 1024,
      paymentTransactionId: '123456789012345',
      paymentPhoneNumber: '0241234567'
    })
    expect(res.body.payment).to.include({
      transactionId: '123456789012345',
      paymentStatus: 'PENDING',
      gateway: 'ussd',
      amount: 5,
      message: 'USSD prompt sent! Check your phone and complete payment.'
    })
    const row = (await app().db.models.Order.findByPk(res.body.id))!.get({ plain: true }) as any
    expect(row.amountPesewas).to.equal(500)
    expect(await count(`audit_logs WHERE action = 'ORDER_CREATED' AND resource_id = :id`, { id: String(res.body.id) })).to.equal(1)
  })

  it('generates a 15-digit transaction id when the client sends none', async () => {
    const res = await buy()
    expect(res.body.payment.transactionId).to.match(/^\d{15}$/)
    expect(res.body.order.paymentTransactionId).to.equal(res.body.payment.transactionId)
  })

  it('charges approved agents priceAgent, or priceUser when no agent price is set', async () => {
    const pkg = await createPackage({ network: 'AIRTELTIGO', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
    const noAgentPrice = await createPackage({ network: 'AIRTELTIGO', sizeMb: 4096, priceUserPesewas: 1500, priceAgentPesewas: null })
    const a = await createAgent()
    const c = new Client()
    await c.login(a.user.email, a.password)
    const r1 = await buy({ packageId: pkg.id }, c)
    expect(r1.status).to.equal(201)
    expect(r1.body.order.amount).to.equal(8)
    const r2 = await buy({ packageId: noAgentPrice.id }, c)
    expect(r2.body.order.amount).to.equal(15)
    const visitor = await buy({ packageId: pkg.id })
    expect(visitor.body.order.amount).to.equal(9)
  })

  it('refuses agents that are not approved or not paid', async () => {
    for (const over of [{ approved: false }, { paymentStatus: 'PENDING' }]) {
      const a = await createAgent(over)
      const c = new Client()
      await c.login(a.user.email, a.password)
      const res = await buy({}, c)
      expect(res.status).to.equal(403)
      expect(res.body.error).to.match(/approved/)
    }
    expect(await count('orders')).to.equal(0)
  })

  it("refuses purchases while the platform is closed: 'Purchases are temporarily disabled'", async () => {
    await setSettings({ platformOpen: false })
    const res = await buy()
    expect(res.status).to.equal(403)
    expect(res.body.error).to.equal('Purchases are temporarily disabled')
    expect(await count('orders')).to.equal(0)
    expect(await count('payments')).to.equal(0)
  })

  it('answers malformed and hostile input with 4xx and a clear error, creating nothing', async () => {
    const id = await mtn1gb()
    const cases: [Record<string, unknown> | string, number, RegExp][] = [
      [{}, 400, /^Please select package and enter recipient number$/],
      [{ recipientNumber: '0201112222', ...momo }, 400, /^Please select a package$/],
      [{ packageId: id, ...momo }, 400, /^Enter recipient number$/],
      [{ packageId: id, recipientNumber: '   ', ...momo }, 400, /^Enter recipient number$/],
      [{ packageId: id, recipientNumber: '02411abc22', ...momo }, 400, /^Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567$/],
      [{ packageId: id, recipientNumber: '0241123456789', ...momo }, 400, /Ghanaian mobile number/],
      // A number that cannot receive data: too short, a landline, an unknown prefix.
      [{ packageId: id, recipientNumber: '0241', ...momo }, 400, /Ghanaian mobile number/],
      [{ packageId: id, recipientNumber: '0302123456', ...momo }, 400, /Ghanaian mobile number/],
      [{ packageId: id, recipientNumber: '0991234567', ...momo }, 400, /Ghanaian mobile number/],
      [{ packageId: id, recipientNumber: '0201112222', payerPhone: '0302123456', payerNetwork: 'MTN' }, 400, /^Please enter a valid phone number$/],
      [{ packageId: id, recipientNumber: { $gt: '' }, ...momo }, 400, /recipient/i],
      [{ packageId: 999999, recipientNumber: '0201112222', ...momo }, 400, /^Please select a package$/],
      [{ packageId: '1; DROP TABLE orders', recipientNumber: '0201112222', ...momo }, 400, /^Please select a package$/],
      [{ packageId: id, recipientNumber: '0201112222', payerPhone: '02412', payerNetwork: 'MTN' }, 400, /^Please enter a valid phone number$/],
      [{ packageId: id, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'VODAFONE' }, 400, /payment network/],
      [{ packageId: id, recipientNumber: '0201112222', ...momo, transactionId: 'abc' }, 400, /up to 15 digits/],
      [{ packageId: id, recipientNumber: '0201112222', ...momo, transactionId: '1234567890123456' }, 400, /up to 15 digits/],
      ['{"packageId":', 400, /Malformed JSON/]
    ]
    for (const [body, status, msg] of cases) {
      // Each case is a fresh visitor: the per-phone order limit (tested on its own) must not interfere.
      await app().db.sequelize.query('DELETE FROM rate_limiter_flexible')
      const res = await new Client().post('/api/orders', body)
      expect(res.status, JSON.stringify(body)).to.equal(status)
      expect(res.body.error, JSON.stringify(body)).to.match(msg)
    }
    expect(await count('orders')).to.equal(0)
    expect(await count('payments')).to.equal(0)
  })

  it('refuses a transaction id that was already used (409) and keeps the first order as it was', async () => {
    const first = await buy({ transactionId: '777' })
    expect(first.status).to.equal(201)
    const again = await buy({ transactionId: '777', recipientNumber: '0209999999' })
    expect(again.status).to.equal(409)
    expect(again.body.error).to.match(/already used/)
    expect(await count('orders')).to.equal(1)
  })

  it('limits orders per payer phone (each one sends a payment prompt to that phone)', async () => {
    for (let i = 0; i < 10; i++) expect((await buy({ recipientNumber: `02011100${String(i).padStart(2, '0')}` })).status).to.equal(201)
    const res = await buy({ recipientNumber: '0201119999' })
    expect(res.status).to.equal(429)
    expect(res.body.error).to.match(/Too many/)
    expect(Number(res.headers.get('retry-after'))).to.be.above(0)
    expect(await count('orders')).to.equal(10)
  })

  it('with the card-redirect gateway needs a valid email and returns the checkout URL', async () => {
    await setSettings({ paymentGateway: 'paystack' })
    const bad = await buy({ payerPhone: undefined, payerNetwork: undefined, email: 'not-an-email' })
    expect(bad.status).to.equal(400)
    expect(bad.body.error).to.match(/^Please enter a valid email address for .+ payment$/)
    const res = await buy({ payerPhone: undefined, payerNetwork: undefined, email: ' Ama@Example.com ' })
    expect(res.status).to.equal(201)
    expect(res.body.payment.gateway).to.equal('paystack')
    expect(res.body.payment.authorizationUrl).to.equal(`/simulator/checkout?reference=${res.body.payment.transactionId}`)
    const p = await app().services.payments.load(res.body.payment.transactionId)
    expect(p!.email).to.equal('ama@example.com')
  })

  it("supports the spec's two-step client: POST /api/orders, then POST /api/payment/request for its transaction id", async () => {
    const browser = new Client()
    const created = await browser.post('/api/orders', {
      recipientNumber: '0201112222',
      network: 'MTN',
      dataSizeMB: 1024,
      paymentStatus: 'PENDING',
      paymentTransactionId: '55501',
      amount: 0.01
    })
    expect(created.status).to.equal(201)
    expect(created.body.id).to.be.a('number')
    expect(created.body.order).to.include({ amount: 5, paymentStatus: 'PENDING' })
    // Another browser knowing only the transaction id cannot take over the payment step.
    const stranger = await new Client().post('/api/payment/request', { transactionId: '55501', phone_number: '0241234567', network: 'MTN' })
    expect(stranger.status).to.equal(404)
    const pay = await browser.post('/api/payment/request', {
      amount: 0.01,
      recipientNumber: '0201112222',
      dataSizeMB: 1024,
      transactionId: '55501',
      phone_number: '0241234567',
      network: 'MTN'
    })
    expect(pay.status).to.equal(200)
    expect(pay.body).to.include({ transactionId: '55501', paymentStatus: 'PENDING', gateway: 'ussd', amount: 5 })
    expect(pay.body).to.have.all.keys(
      'transactionId',
      'paymentStatus',
      'extTransactionId',
      'message',
      'gateway',
      'authorizationUrl',
      'provider',
      'providerLabel',
      'amount',
      'purpose',
      'needsCode'
    )
    const twice = await browser.post('/api/payment/request', { transactionId: '55501', phone_number: '0241234567', network: 'MTN' })
    expect(twice.status).to.equal(409)
    const unknown = await new Client().post('/api/payment/request', { transactionId: '99999', phone_number: '0241234567', network: 'MTN' })
    expect(unknown.status).to.equal(400)
    expect(unknown.body.error).to.match(/No order found/)
  })
})

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

describe('storefront API: order lookup by phone', () => {
  beforeEach(resetDb)

  it('finds orders by recipient or paying phone in either spelling, with packageName and paymentPhoneNumber', async () => {
    await buy({ recipientNumber: '0201112222' })
    await buy({ recipientNumber: '0555000111', payerPhone: '0201112222' })
    await buy({ recipientNumber: '0555000999', payerPhone: '0555000999' })
    const res = await new Client().get('/api/orders?phoneNumber=233201112222')
    expect(res.status).to.equal(200)
    expect(res.body).to.have.length(2)
    expect(res.body[0]).to.include({
      recipientNumber: '0555000111',
      paymentPhoneNumber: '*******222',
      packageName: '1GB daily',
      network: 'MTN',
      amount: 5,
      paymentStatus: 'PENDING'
    })
    expect(res.body[0].paymentTransactionId).to.match(/^\*{12}\d{3}$/)
    expect((await new Client().get('/api/orders?phoneNumber=0279999999')).body).to.deep.equal([])
  })

  it('shows the paying phone and transaction id whole only to the browser that paid (or the buyer signed in); anyone else sees the last 3 digits', async () => {
    const paid = await buy({ recipientNumber: '0201112222', payerPhone: '0241239876' })
    const tid = paid.body.order.paymentTransactionId as string
    const lookup = async (client: Client) => (await client.get('/api/orders?phoneNumber=0201112222')).body[0]

    const stranger = await lookup(new Client())
    expect(stranger).to.include({ recipientNumber: '0201112222', paymentPhoneNumber: '*******876', paymentTransactionId: `${'*'.repeat(12)}${tid.slice(-3)}` })
    expect(JSON.stringify(stranger)).to.not.include('0241239876').and.not.include(tid)

    expect(await lookup(paid.client)).to.include({ paymentPhoneNumber: '0241239876', paymentTransactionId: tid })

    // A signed-in buyer sees their own order whole from any browser.
    await createUser({ email: 'ama@example.com', password: 'Passw0rd!long' })
    const signedIn = new Client()
    await signedIn.login('ama@example.com', 'Passw0rd!long')
    const mine = await buy({ recipientNumber: '0201112222', payerPhone: '0241230000' }, signedIn)
    expect(mine.status).to.equal(201)
    const other = new Client()
    await other.login('ama@example.com', 'Passw0rd!long')
    const seen = (await other.get('/api/orders?phoneNumber=0201112222')).body
    expect(seen.find((o: any) => o.id === mine.body.order.id)).to.include({ paymentPhoneNumber: '0241230000' })
    expect(seen.find((o: any) => o.id === paid.body.order.id)).to.include({ paymentPhoneNumber: '*******876' })
  })

  it('finds an order however its number was typed, at purchase or at lookup', async () => {
    // Bought with the 233 spelling; stored as the local number.
    await buy({ recipientNumber: '233201112222' })
    for (const typed of ['0201112222', '233201112222', '201112222', '+233 20 111 2222', '020-111-2222']) {
      const res = await new Client().get(`/api/orders?phoneNumber=${encodeURIComponent(typed)}`)
      expect(res.status, typed).to.equal(200)
      expect(res.body, typed).to.have.length(1)
      expect(res.body[0].recipientNumber, typed).to.equal('0201112222')
    }
    const bad = await new Client().get('/api/orders?phoneNumber=0241')
    expect(bad.status).to.equal(400)
    expect(bad.body.error).to.equal('Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567')
  })

  it('refuses a blank or non-digit phone', async () => {
    const blank = await new Client().get('/api/orders?phoneNumber=%20')
    expect(blank.status).to.equal(400)
    expect(blank.body.error).to.equal('Please enter a phone number')
    expect((await new Client().get('/api/orders?phoneNumber=abc')).status).to.equal(400)
    expect((await new Client().get('/api/orders?phoneNumber=1&phoneNumber=2')).status).to.equal(400)
  })
})

describe('storefront API: hostile input on the payment and AFA calls', () => {
  beforeEach(resetDb)

  it('answers 4xx with a clear error and changes nothing', async () => {
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/api/payment/request', [], /No order found/],
      ['POST', '/api/payment/request', { type: { $ne: 1 } }, /Unknown payment type/],
      ['POST', '/api/payment/request', { transactionId: { $gt: 0 }, phone_number: '0241234567', network: 'MTN' }, /up to 15 digits/],
      ['POST', '/api/payment/request', { transactionId: '1'.repeat(16) }, /up to 15 digits/],
      [
        'POST',
        '/api/payment/request',
        { packageId: 1, recipientNumber: '0'.repeat(5000), phone_number: '0241234567', network: 'MTN' },
        /Ghanaian mobile number|select a package/
      ],
      [
        'POST',
        '/api/payment/request',
        { type: 'afa_registration', fullName: 'A'.repeat(500), ghCard: 'X', phone: '0241112222', phone_number: '0241112222', network: 'MTN' },
        /fullName/
      ],
      [
        'POST',
        '/api/payment/request',
        { type: 'afa_registration', fullName: 'Ama', ghCard: '<script>', phone: '0241112222', phone_number: '0241112222', network: 'MTN' },
        /letters, digits and dashes/
      ],
      ['POST', '/api/afa', [], /Please fill all fields/],
      ['POST', '/api/afa', { fullName: ['x'], ghCard: 'GHA-1', phone: '0241112222', paymentTransactionId: '1' }, /fullName/],
      [
        'POST',
        '/api/afa',
        { fullName: 'Ama', ghCard: 'GHA-1', phone: '0241112222', paymentTransactionId: "1' OR 1=1" },
        /fails to match|Payment must be successful/
      ],
      ['GET', '/api/payment/status/' + 'x'.repeat(200), undefined, /Invalid transaction ID/],
      ['GET', '/api/webhooks/paystack?reference[$ne]=1', undefined, /reference/i],
      ['PATCH', '/api/orders/99999999999999999999', { paymentStatus: 'SUCCESS' }, /Invalid order id/]
    ]
    for (const [method, path, body, msg] of cases) {
      const res = await new Client().request(method, path, body)
      expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).to.be.within(400, 499)
      expect(res.body.error, `${method} ${path}`).to.match(msg)
    }
    expect(await count('orders')).to.equal(0)
    expect(await count('payments')).to.equal(0)
    expect(await count('afa_registrations')).to.equal(0)
  })
})

describe('storefront API: AFA registration', () => {
  beforeEach(resetDb)

  const form = { fullName: 'Ama Mensah', ghCard: 'GHA-123456789-0', phone: '0241112222' }

  it('with a fee: pending payment refuses the registration; approval records it once', async () => {
    await setSettings({ afaRegistrationFee: 10 })
    const pay = await new Client().post('/api/payment/request', { type: 'afa_registration', ...form, amount: 0.01, phone_number: '0241112222', network: 'MTN' })
    expect(pay.status).to.equal(200)
    expect(pay.body).to.include({ paymentStatus: 'PENDING', amount: 10, purpose: 'afa' })
    const early = await new Client().post('/api/afa', { ...form, paymentStatus: 'SUCCESS', paymentTransactionId: pay.body.transactionId })
    expect(early.status).to.equal(400)
    expect(early.body.error).to.equal('Payment must be successful before completing registration')
    expect(await count('afa_registrations')).to.equal(0)
    await approve(pay.body.transactionId)
    expect(await count('afa_registrations')).to.equal(1)
    const reg = await new Client().post('/api/afa', { ...form, paymentStatus: 'SUCCESS', paymentTransactionId: pay.body.transactionId })
    expect(reg.status).to.equal(201)
    expect(reg.body.id).to.be.a('number')
    const again = await new Client().post('/api/afa', { ...form, paymentTransactionId: pay.body.transactionId })
    expect(again.body.id).to.equal(reg.body.id)
    expect(await count('afa_registrations')).to.equal(1)
    const row = (await app().db.models.AfaRegistration.findByPk(reg.body.id))!.get({ plain: true }) as any
    expect(row).to.include({ fullName: 'Ama Mensah', ghCard: 'GHA-123456789-0', paymentStatus: 'SUCCESS', amountPesewas: 1000 })
  })

  it('with no fee: the payment succeeds at once and the registration is recorded', async () => {
    const pay = await new Client().post('/api/payment/request', { type: 'afa_registration', ...form, phone_number: '0241112222', network: 'MTN' })
    expect(pay.body).to.include({ paymentStatus: 'SUCCESS', amount: 0 })
    const reg = await new Client().post('/api/afa', { ...form, paymentTransactionId: pay.body.transactionId })
    expect(reg.status).to.equal(201)
  })

  it('refuses missing fields, a closed platform, and a data payment passed off as an AFA one', async () => {
    const missing = await new Client().post('/api/payment/request', {
      type: 'afa_registration',
      fullName: 'Ama',
      phone: '0241112222',
      phone_number: '0241112222',
      network: 'MTN'
    })
    expect(missing.status).to.equal(400)
    expect(missing.body.error).to.equal('Please fill all fields')
    // A fee to pay needs a payer (a fee of 0 needs none: free-fees.test.ts).
    await setSettings({ afaRegistrationFee: 5 })
    const noPayer = await new Client().post('/api/payment/request', { type: 'afa_registration', ...form })
    expect(noPayer.body.error).to.equal('Please enter payment phone number')
    const { body } = await buy()
    await approve(body.payment.transactionId)
    const fake = await new Client().post('/api/afa', { ...form, paymentStatus: 'SUCCESS', paymentTransactionId: body.payment.transactionId })
    expect(fake.status).to.equal(400)
    expect(fake.body.error).to.equal('Payment must be successful before completing registration')
    expect((await new Client().post('/api/afa', { fullName: 'Ama', paymentTransactionId: '1' })).body.error).to.equal('Please fill all fields')
    await setSettings({ platformOpen: false })
    const closed = await new Client().post('/api/afa', { ...form, paymentTransactionId: body.payment.transactionId })
    expect(closed.status).to.equal(403)
    expect(closed.body.error).to.equal('Platform is currently closed')
    expect(await count('afa_registrations')).to.equal(0)
  })

  it('with the card gateway asks for a valid payment email', async () => {
    await setSettings({ paymentGateway: 'paystack', afaRegistrationFee: 5 })
    const res = await new Client().post('/api/payment/request', { type: 'afa_registration', ...form, email: 'nope' })
    expect(res.status).to.equal(400)
    expect(res.body.error).to.equal('Please enter a valid email address for payment')
    const ok = await new Client().post('/api/payment/request', { type: 'afa_registration', ...form, email: 'ama@example.com' })
    expect(ok.body.authorizationUrl).to.match(/^\/simulator\/checkout\?reference=\d+$/)
  })
})
