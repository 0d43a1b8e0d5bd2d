import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { createAgent, createPackage, count, setSettings, mtn1gb, momo, buy } from '../helpers/storefront-api.ts'

// Storefront API against the built-in payment simulator (no Paystack key in the test app).

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
