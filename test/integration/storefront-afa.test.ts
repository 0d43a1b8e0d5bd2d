import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { count, setSettings, approve, buy } from '../helpers/storefront-api.ts'

// Storefront API against the built-in payment simulator (no Paystack key in the test app).

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
