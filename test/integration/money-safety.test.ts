import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { newTransactionId } from '../../server/services/payments/index.ts'
import { bootOnPaystack, postPaystackWebhook } from '../helpers/instance.ts'
import { startFakePaystack, type FakePaystack, type Trouble } from '../helpers/fake-paystack.ts'
import { Client } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { ussdAgent } from '../helpers/ussd.ts'
import { createPackage } from '../helpers/factories.ts'

// An app instance on Paystack (a local fake speaking its protocol), on the test database.
describe('money safety with Paystack (fake Paystack server)', function () {
  this.timeout(60_000)
  let fake: FakePaystack
  let ps: Running
  // The payer's browser: a payment's status and voucher open only for the browser that started it.
  let payerBrowser: Client | undefined
  const client = () => (payerBrowser ??= new Client(ps.url))
  const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
  const count = async (from: string, replacements: Record<string, unknown> = {}) =>
    Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, replacements))[0]!.n)
  const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
  const postWebhook = (body: string, signature?: string) => postPaystackWebhook(ps, body, signature)
  /** Lets the next status check through at once (Paystack asks for 10 s between charge checks). */
  const allowCheck = (tid: string) => sql(`UPDATE payments SET last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`, { tid })
  const payment = async (tid: string) => (await ps.services.payments.load(tid))!
  const admin = async () => {
    const c = new Client(ps.url)
    expect((await c.login(ADMIN.email, ADMIN.password)).status).to.equal(200)
    return c
  }
  const order = async (over: Record<string, unknown> = {}) => {
    const res = await client().post('/api/orders', {
      packageId: await mtn1gb(),
      recipientNumber: '0201112222',
      payerPhone: '0241234567',
      payerNetwork: 'MTN',
      ...over
    })
    expect(res.status, res.text).to.equal(201)
    return res.body as { id: number; payment: any }
  }
  const paid = async () => {
    const o = await order()
    const tid = o.payment.transactionId as string
    fake.complete(tid, 'success')
    const { body, signature } = fake.webhook(tid)
    expect((await postWebhook(body, signature)).status).to.equal(200)
    expect((await payment(tid)).status).to.equal('SUCCESS')
    return { ...o, tid }
  }
  const STRICT_EMAIL = /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}$/i

  before(async () => {
    fake = await startFakePaystack('sk_test_x')
    ps = await bootOnPaystack(fake, { PAYSTACK_TIMEOUT_MS: 1000 })
  })
  after(async () => {
    await ps?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    payerBrowser = undefined
    await resetDb()
    ps.services.settings.invalidate()
    fake.requests.length = 0
    fake.txns.clear()
    fake.refunds.length = 0
    fake.refundMode = 'processed'
    fake.otpProviders.clear()
    fake.trouble(null)
    fake.maxPerPage = 100
  })
  afterEach(() => {
    // Every charge Paystack received carried an e-mail a strict check accepts.
    for (const r of fake.requests.filter((x) => x.path === '/charge')) expect(r.body.email).to.match(STRICT_EMAIL)
  })

  it("takes the client's transaction id as a number or a string of up to 15 digits, trimmed; anything else is a 400 and no payment", async () => {
    const place = async (transactionId: unknown) => {
      // Each order is a fresh payer: the per-phone order limit is not what this checks.
      await sql('DELETE FROM rate_limiter_flexible')
      return client().post('/api/orders', {
        packageId: await mtn1gb(),
        recipientNumber: '0201112222',
        payerPhone: '0241234567',
        payerNetwork: 'MTN',
        transactionId
      })
    }
    const asNumber = await place(123456789012345)
    expect(asNumber.status, asNumber.text).to.equal(201)
    expect(asNumber.body.payment.transactionId).to.equal('123456789012345')
    const spaced = await place(' 987654321 ')
    expect(spaced.status, spaced.text).to.equal(201)
    expect(spaced.body.payment.transactionId).to.equal('987654321')
    for (const bad of ['abc', '1'.repeat(16), [123456789], { id: 123456789 }, true]) {
      const res = await place(bad)
      expect(res.status, JSON.stringify(bad)).to.equal(400)
      expect(res.body.error, JSON.stringify(bad)).to.equal('Transaction ID must be a whole number of up to 15 digits')
    }
    expect(await count('payments')).to.equal(2)
  })

  describe('an unclear answer at charge start leaves the payment pending until the gateway gives its word', () => {
    const cases: [string, Trouble | 'duplicate'][] = [
      ['duplicate reference', 'duplicate'],
      ['429 Too Many Requests', { kind: '429' }],
      ['502 with an HTML body', { kind: '502' }],
      ['a body that is not JSON', { kind: 'nonjson' }],
      ['connection reset', { kind: 'reset' }],
      ['20 s of silence', { kind: 'silence', ms: 20_000 }]
    ]
    for (const [name, trouble] of cases) {
      it(`${name}: the payer is told "waiting for approval", then approves: SUCCESS once, nobody involved`, async () => {
        const tid = newTransactionId()
        if (trouble === 'duplicate') fake.plant({ reference: tid, amount: 500, status: 'pay_offline' })
        else fake.trouble(trouble)
        const o = await order({ transactionId: tid })
        expect(o.payment.paymentStatus).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
        expect(o.payment.message).to.match(/waiting for approval/i)
        expect(o.payment.message).to.not.match(/fail/i)
        const status = await client().get(`/api/payment/status/${tid}`)
        expect(status.body.paymentStatus).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
        expect((await payment(tid)).details.unclear).to.be.a('string')

        fake.complete(tid, 'success') // the payer approved the prompt on the phone
        await allowCheck(tid)
        await sql(`UPDATE payments SET created_at = now() - interval '90 seconds' WHERE transaction_id = :tid RETURNING id`, { tid })
        const { reconcilePayments } = await import('../../jobs/reconcile.ts')
        await reconcilePayments({ services: ps.services, log: createLogger('silent') })
        await allowCheck(tid)
        await reconcilePayments({ services: ps.services, log: createLogger('silent') })
        expect((await payment(tid)).status).to.equal('SUCCESS')
        expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(1)
        expect(await count(`audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id = :tid`, { tid })).to.equal(1)
        expect(fake.requests.some((r) => r.path === `/transaction/verify/${tid}`)).to.equal(true)
      })
    }

    it("a clear refusal (invalid number) still fails at once with the gateway's message", async () => {
      const res = await client().post('/api/orders', {
        packageId: await mtn1gb(),
        recipientNumber: '0201112222',
        payerPhone: '0240000000',
        payerNetwork: 'MTN'
      })
      expect(res.status).to.equal(201)
      expect(res.body.payment.paymentStatus).to.equal('FAILED')
      expect(res.body.payment.message).to.equal('Invalid phone number')
    })
  })

  describe('verify before value', () => {
    for (const [name, opts, refunded] of [
      ['1 pesewa short', { amount: 499 }, 499],
      ['in USD', { currency: 'USD' }, 500],
      ['with no currency', { currency: null }, 500]
    ] as const) {
      it(`a success ${name}: nothing delivered, exactly one refund of what came in (webhook 5 times at once), listed for the admin`, async () => {
        const o = await order()
        const tid = o.payment.transactionId
        fake.complete(tid, 'success', opts)
        const { body, signature } = fake.webhook(tid, opts)
        const answers = await Promise.all(Array.from({ length: 5 }, () => postWebhook(body, signature)))
        expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200])
        await ps.services.queue.drain()
        expect(fake.refunds.map((r) => [r.reference, r.amount])).to.deep.equal([[tid, refunded]])
        const p = await payment(tid)
        expect(p.status).to.equal('REFUNDED')
        expect(p.message).to.match(/refunded/)
        expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(0)
        // Not queued for a vendor either: a failed payment's order stays out of delivery.
        expect(await count(`orders WHERE id = :id AND delivery_status = 'NOT_STARTED'`, { id: o.id })).to.equal(1)
        expect(await count('commissions')).to.equal(0)
        // Audited as the failure it is, on time: not as a late payment.
        const [entry] = await sql<{ severity: string; details: any }>(
          `SELECT severity, details FROM audit_logs WHERE action = 'PAYMENT_FAILED' AND resource_id = :tid`,
          {
            tid
          }
        )
        expect(entry!.severity).to.equal('MEDIUM')
        expect(entry!.details).to.not.have.property('late')
        const list = (await (await admin()).get('/api/admin/payments/attention')).body.items
        expect(list.some((i: any) => i.kind === 'wrong_amount' && i.transactionId === tid)).to.equal(true)
      })
    }

    it('overpaid by 1 GHS: delivered, and the 1 GHS refunded', async () => {
      const o = await order()
      const tid = o.payment.transactionId
      fake.complete(tid, 'success', { amount: 600 })
      const { body, signature } = fake.webhook(tid)
      await Promise.all(Array.from({ length: 3 }, () => postWebhook(body, signature)))
      await ps.services.queue.drain()
      expect((await payment(tid)).status).to.equal('SUCCESS')
      expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(1)
      expect(fake.refunds.map((r) => r.amount)).to.deep.equal([100])
    })
  })

  describe('refunds', () => {
    // Paid orders wait for the admin (manual delivery): an order the vendor may be delivering is never refunded.
    beforeEach(() => ps.services.settings.update({ deliveryMode: 'manual' }, {}))
    it('admin refunds a paid, undelivered order: one refund of the paid amount despite 10 concurrent clicks; commission reversed; revenue drops', async () => {
      const { id, tid } = await paid()
      const a = await admin()
      const before = (await a.get('/api/admin/analytics?range=today')).body
      expect(await count('commissions WHERE order_id = :id', { id })).to.equal(1)
      expect((await a.post(`/api/admin/orders/${id}/refund`, { reason: '' })).status).to.equal(400)
      const clicks = await Promise.all(Array.from({ length: 10 }, () => a.post(`/api/admin/orders/${id}/refund`, { reason: 'Customer asked' })))
      expect(clicks.filter((c) => c.status === 201)).to.have.length(1)
      expect(clicks.filter((c) => c.status === 409)).to.have.length(9)
      expect((await payment(tid)).status).to.equal('REFUND_PENDING')
      await Promise.all([ps.services.queue.drain(), ps.services.queue.drain()])
      expect(fake.refunds.map((r) => [r.reference, r.amount])).to.deep.equal([[tid, 500]])
      expect((await payment(tid)).status).to.equal('REFUNDED')
      expect(await count(`orders WHERE id = :id AND payment_status = 'REFUNDED'`, { id })).to.equal(1)
      expect(await count('commissions WHERE order_id = :id', { id })).to.equal(0)
      expect(await count(`audit_logs WHERE action = 'REFUND_ISSUED' AND resource_id = :tid`, { tid })).to.equal(1)
      const after = (await a.get('/api/admin/analytics?range=today')).body
      expect(before.totalRevenue - after.totalRevenue).to.equal(5)
    })

    it('an overpaid payment (6 GHS in, 5 due) the admin refunds afterwards gets the excess, then the rest: never more than came in, also with both at once', async () => {
      const a = await admin()
      const refunded = async (tid: string) => {
        const ours = await sql<{ kind: string; amount_pesewas: number }>(
          `SELECT kind, amount_pesewas FROM refunds WHERE transaction_id = :tid AND status <> 'FAILED' ORDER BY kind`,
          { tid }
        )
        const theirs = fake.refunds
          .filter((r) => r.reference === tid)
          .map((r) => r.amount)
          .sort((x, y) => x - y)
        return { ours: ours.map((r) => [r.kind, r.amount_pesewas]), theirs }
      }
      const overpaid = async () => {
        const o = await order()
        const tid = o.payment.transactionId as string
        fake.complete(tid, 'success', { amount: 600 })
        const { body, signature } = fake.webhook(tid)
        expect((await postWebhook(body, signature)).status).to.equal(200)
        expect((await payment(tid)).status).to.equal('SUCCESS')
        return { id: o.id, tid }
      }

      // One after the other: the excess goes back first, the admin's refund is the rest.
      const one = await overpaid()
      await ps.services.queue.drain()
      expect(await refunded(one.tid)).to.deep.equal({ ours: [['excess', 100]], theirs: [100] })
      const res = await a.post(`/api/admin/orders/${one.id}/refund`, { reason: 'Customer asked' })
      expect(res.status, res.text).to.equal(201)
      expect(res.body.amount).to.equal(5)
      await ps.services.queue.drain()
      expect(await refunded(one.tid)).to.deep.equal({
        ours: [
          ['excess', 100],
          ['full', 500]
        ],
        theirs: [100, 500]
      })
      expect((await payment(one.tid)).status).to.equal('REFUNDED')

      // At once: the admin clicks Refund (three times) while the excess refund is on its way to Paystack.
      const two = await overpaid()
      const [, ...clicks] = await Promise.all([
        ps.services.queue.drain(),
        ...[1, 2, 3].map(() => a.post(`/api/admin/orders/${two.id}/refund`, { reason: 'Customer asked' }))
      ])
      expect(clicks.map((c) => c.status).sort()).to.deep.equal([201, 409, 409])
      expect(clicks.find((c) => c.status === 201)!.body.amount).to.equal(5)
      await ps.services.queue.drain()
      expect(await refunded(two.tid)).to.deep.equal({
        ours: [
          ['excess', 100],
          ['full', 500]
        ],
        theirs: [100, 500]
      })
    })

    it('a refund whose answer is lost (timeout after Paystack made it) is found on retry, never sent twice', async () => {
      const { tid } = await paid()
      fake.refundMode = 'lost'
      await ps.services.payments.refund(tid, 'Out of stock')
      await ps.services.queue.drain() // POST /refund times out: outcome unknown, the job fails and is retried
      expect((await payment(tid)).status).to.equal('REFUND_PENDING')
      expect(fake.refunds).to.have.length(1)
      fake.refundMode = 'processed'
      await sql(`UPDATE graphile_worker._private_jobs SET run_at = now() RETURNING id`)
      await ps.services.queue.drain()
      expect(fake.requests.filter((r) => r.method === 'GET' && r.path === '/refund')).to.have.length(1)
      expect(fake.requests.filter((r) => r.method === 'POST' && r.path === '/refund')).to.have.length(1)
      expect(fake.refunds).to.have.length(1)
      expect((await payment(tid)).status).to.equal('REFUNDED')
    })

    it('a delivered order cannot be refunded; the shop setting decides the refund on a failed delivery', async () => {
      const { id, tid } = await paid()
      expect(await ps.services.payments.onDeliveryFailed(id, 'Delivery failed')).to.equal(null)
      await ps.services.settings.update({ refundOnDeliveryFailure: true }, {})
      const r = await ps.services.payments.onDeliveryFailed(id, 'Delivery failed')
      expect(r).to.include({ transactionId: tid, amountPesewas: 500 })
      const second = await paid()
      await sql('UPDATE orders SET delivered = true WHERE id = :id RETURNING id', { id: second.id })
      const res = await (await admin()).post(`/api/admin/orders/${second.id}/refund`, { reason: 'x' })
      expect(res.status).to.equal(409)
    })

    it('a refund Paystack settles later by webhook; a refused refund is listed and can be retried', async () => {
      const { tid } = await paid()
      fake.refundMode = 'pending'
      await ps.services.payments.refund(tid, 'Out of stock')
      await ps.services.queue.drain()
      expect((await payment(tid)).status).to.equal('REFUND_PENDING')
      const rf = fake.refunds[0]!
      const ev = fake.event('refund.processed', { id: rf.id, status: 'processed', transaction_reference: tid, amount: 500, currency: 'GHS' })
      expect((await postWebhook(ev.body, ev.signature)).status).to.equal(200)
      expect((await payment(tid)).status).to.equal('REFUNDED')

      const other = await paid()
      fake.refundMode = 'refuse'
      await ps.services.payments.refund(other.tid, 'Out of stock')
      await ps.services.queue.drain()
      expect((await payment(other.tid)).status).to.equal('REFUND_FAILED')
      const a = await admin()
      const item = (await a.get('/api/admin/payments/attention')).body.items.find((i: any) => i.kind === 'refund_failed')
      expect(item).to.include({ transactionId: other.tid })
      expect(item.actions).to.deep.equal(['retry_refund'])
      fake.refundMode = 'processed'
      expect((await a.post(`/api/admin/refunds/${item.id}/retry`)).status).to.equal(200)
      await ps.services.queue.drain()
      expect((await payment(other.tid)).status).to.equal('REFUNDED')
      expect(fake.refunds.filter((r) => r.reference === other.tid && r.status !== 'failed')).to.have.length(1)
    })
  })

  describe('late money', () => {
    it('approval after expiry: the order is settled automatically and listed on the attention page', async () => {
      const o = await order()
      const tid = o.payment.transactionId
      await sql(
        `UPDATE payments SET created_at = now() - interval '10 minutes', last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`,
        { tid }
      )
      const { reconcilePayments } = await import('../../jobs/reconcile.ts')
      await reconcilePayments({ services: ps.services, log: createLogger('silent') })
      expect((await payment(tid)).status).to.equal('EXPIRED')
      fake.complete(tid, 'success')
      const { body, signature } = fake.webhook(tid)
      await Promise.all(Array.from({ length: 3 }, () => postWebhook(body, signature)))
      expect((await payment(tid)).status).to.equal('SUCCESS')
      expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(1)
      expect(await count('commissions WHERE order_id = :id', { id: o.id })).to.equal(1)
      const items = (await (await admin()).get('/api/admin/payments/attention')).body.items
      expect(items.find((i: any) => i.kind === 'late_success')).to.include({ transactionId: tid, actionTaken: 'Settled automatically: the purchase proceeds' })
    })

    it('approval after expiry with no webhook at all: the reconcile job asks again and settles it', async () => {
      const o = await order()
      const tid = o.payment.transactionId
      await sql(
        `UPDATE payments SET created_at = now() - interval '10 minutes', last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`,
        { tid }
      )
      const { reconcilePayments } = await import('../../jobs/reconcile.ts')
      await reconcilePayments({ services: ps.services, log: createLogger('silent') })
      expect((await payment(tid)).status).to.equal('EXPIRED')
      fake.complete(tid, 'success')
      await allowCheck(tid)
      await reconcilePayments({ services: ps.services, log: createLogger('silent') })
      expect((await payment(tid)).status).to.equal('SUCCESS')
      expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(1)
      expect(await count(`payment_issues WHERE kind = 'late_success' AND transaction_id = :tid`, { tid })).to.equal(1)
    })

    it('a late success that cannot be honoured (the order was already paid another way) is refunded automatically', async () => {
      const o = await order()
      const tid = o.payment.transactionId
      await sql(`UPDATE payments SET status = 'EXPIRED' WHERE transaction_id = :tid RETURNING id`, { tid })
      await sql(`UPDATE orders SET payment_status = 'SUCCESS' WHERE id = :id RETURNING id`, { id: o.id }) // honoured some other way
      fake.complete(tid, 'success')
      const { body, signature } = fake.webhook(tid)
      await postWebhook(body, signature)
      await ps.services.queue.drain()
      expect((await payment(tid)).status).to.equal('REFUNDED')
      expect(fake.refunds.map((r) => r.amount)).to.deep.equal([500])
      const items = (await (await admin()).get('/api/admin/payments/attention')).body.items
      expect(items.find((i: any) => i.kind === 'late_success')?.actionTaken).to.match(/Refunded automatically/)
    })
  })

  describe('events the shop does not recognise are kept', () => {
    it('a signed charge.success for an unknown reference and a charge.dispute.create: 200, stored once when sent 3 times, on the attention page', async () => {
      const unknown = fake.event('charge.success', { id: 99, reference: 'NOT-OURS-1', status: 'success', amount: 500, currency: 'GHS' })
      const { tid } = await paid()
      const dispute = fake.event('charge.dispute.create', { id: 7, category: 'fraud', transaction: { id: 1, reference: tid } })
      for (let i = 0; i < 3; i++) {
        expect((await postWebhook(unknown.body, unknown.signature)).status).to.equal(200)
        expect((await postWebhook(dispute.body, dispute.signature)).status).to.equal(200)
      }
      expect(await count(`gateway_events WHERE event = 'charge.success' AND reference = 'NOT-OURS-1'`)).to.equal(1)
      expect(await count(`gateway_events WHERE event = 'charge.dispute.create'`)).to.equal(1)
      expect((await payment(tid)).status).to.equal('REVERSED')
      expect(await count('commissions')).to.equal(0)
      const a = await admin()
      const res = await a.get('/api/admin/payments/attention')
      const events = res.body.items.filter((i: any) => i.type === 'event')
      expect(events.map((e: any) => e.details.event).sort()).to.deep.equal(['charge.dispute.create', 'charge.success'])
      expect(events.find((e: any) => e.details.event === 'charge.success').details.data.reference).to.equal('NOT-OURS-1')
      expect(res.body.items.some((i: any) => i.kind === 'dispute' && i.transactionId === tid)).to.equal(true)
      expect(res.body.count).to.equal(res.body.items.length)
      // Unsigned: 401 and stored nowhere.
      const forged = JSON.stringify({ event: 'transfer.success', data: { id: 5 } })
      expect((await postWebhook(forged)).status).to.equal(401)
      expect((await postWebhook(forged, 'ab'.repeat(64))).status).to.equal(401)
      expect(await count(`gateway_events WHERE event = 'transfer.success'`)).to.equal(0)
      // The admin deals with one; it leaves the list.
      expect((await a.post(`/api/admin/payments/attention/event/${events[0].id}/resolve`)).status).to.equal(200)
      expect((await a.get('/api/admin/payments/attention')).body.count).to.equal(res.body.count - 1)
    })
  })

  /** One dial on the Paystack instance's USSD endpoint (Africa's Talking format). */
  const dialer = (phone: string, networkCode: string) => {
    const inputs: string[] = []
    const sessionId = `ATUid_${Math.random().toString(36).slice(2)}`
    return async (input?: string) => {
      if (input !== undefined) inputs.push(input)
      const started = performance.now()
      const res = await fetch(`${ps.url}/ussd/africastalking`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sessionId, serviceCode: '*920*44#', phoneNumber: phone, networkCode, text: inputs.join('*') }).toString()
      })
      return { text: await res.text(), ms: performance.now() - started }
    }
  }

  describe('USSD never waits on the gateway', () => {
    it('the confirm hop answers at once while the gateway takes 20 s to answer the charge', async () => {
      const { pin } = await ussdAgent({ phone: '0241150001' })
      const hop = dialer('+233241150001', '62001')
      await hop()
      for (const input of [pin, '1', '1', '1', '1']) await hop(input)
      fake.trouble({ kind: 'slow', ms: 20_000 })
      const done = await hop('1')
      expect(done.text).to.match(/^END Order placed: .* A payment prompt for GHS [\d.]+ is coming to 0241150001/)
      // The proof is structural (no timed assertion): the hop answered before any charge reached the gateway.
      console.log(`      (confirm hop answered in ${done.ms.toFixed(0)} ms)`)
      expect(fake.requests.filter((r) => r.path === '/charge')).to.have.length(0)
      const [p] = await sql<{ transaction_id: string; status: string }>(`SELECT transaction_id, status FROM payments`)
      expect(p!.status).to.equal('PENDING')
      await ps.services.queue.drain() // the background charge: slow at the gateway, so unclear; stays pending
      expect(fake.requests.filter((r) => r.path === '/charge')).to.have.length(1)
      expect((await payment(p!.transaction_id)).status).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
    })

    it('a Telecel payer gives the voucher in the same dial; the payment ends SUCCESS', async () => {
      fake.otpProviders.add('vod')
      const { pin } = await ussdAgent({ phone: '0501150002' })
      await createPackage({ network: 'TELECEL', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
      const hop = dialer('+233501150002', '62002')
      await hop()
      await hop(pin)
      await hop('1') // Buy data
      const networks = await hop('2') // Telecel bundles
      expect(networks.text).to.contain('2.0GB')
      await hop('1')
      const confirm = await hop('1') // my number
      expect(confirm.text).to.contain('Confirm purchase')
      const ask = await hop('1')
      expect(ask.text).to.match(/^CON Telecel Cash needs a voucher\./)
      expect((await hop('12')).text).to.contain('Enter the 6-digit voucher.')
      const done = await hop('123456')
      expect(done.text).to.match(/^END Order placed/)
      await ps.services.queue.drain()
      const [p] = await sql<{ transaction_id: string; details: any }>(`SELECT transaction_id, details FROM payments`)
      expect(fake.requests.filter((r) => r.path === '/charge/submit_otp').map((r) => r.body)).to.deep.equal([{ otp: '123456', reference: p!.transaction_id }])
      expect(p!.details.voucher).to.equal(undefined)
      fake.complete(p!.transaction_id, 'success')
      await allowCheck(p!.transaction_id)
      await ps.services.payments.refresh(p!.transaction_id)
      expect((await payment(p!.transaction_id)).status).to.equal('SUCCESS')
    })
  })

  describe('the reconcile job is fair', () => {
    /** `n` open payments older than a reconcile run looks at, never checked, that the gateway keeps answering `status`. */
    async function stuck(prefix: string, n: number, method: 'momo' | 'card', status: 'pay_offline' | 'pending') {
      await sql(
        `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, payer_phone, payer_network, email, details, created_at, last_checked_at)
         SELECT :prefix || lpad(g::text, 4, '0'), 'data', 'paystack', :method, 'PENDING', 500, '0241234567', 'MTN', 'a@example.com', '{}', now() - interval '3 minutes' - g * interval '1 second', NULL
           FROM generate_series(1, :n) g RETURNING id`,
        { prefix, method, n }
      )
      for (let g = 1; g <= n; g++) fake.plant({ reference: `${prefix}${String(g).padStart(4, '0')}`, amount: 500, status })
    }

    it('pages through every pending payment, least recently checked first: 200 stuck ones never starve the rest', async () => {
      // 200 stuck payments the gateway never answers, all older than the one that was paid.
      await stuck('STUCK', 200, 'momo', 'pay_offline')
      const o = await order()
      const tid = o.payment.transactionId
      await sql(
        `UPDATE payments SET created_at = now() - interval '90 seconds', last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`,
        { tid }
      )
      fake.complete(tid, 'success')
      fake.requests.length = 0
      const { reconcilePayments } = await import('../../jobs/reconcile.ts')
      const run = await reconcilePayments({ services: ps.services, log: createLogger('silent') }, { batch: 50 })
      expect(run.ran && run.result.checked).to.equal(1)
      expect((await payment(tid)).status).to.equal('SUCCESS')
      // Every open payment was asked once, the never-checked ones first.
      const asked = fake.requests.filter((r) => r.path.startsWith('/transaction/verify/')).map((r) => r.path.slice('/transaction/verify/'.length))
      expect(asked).to.have.length(201)
      expect(new Set(asked).size).to.equal(201)
      expect(asked.indexOf(tid)).to.be.greaterThan(150)
      // The next run (once Paystack's 10 s have passed) starts again with the least recently checked.
      expect(await count(`payments WHERE status = 'PENDING' AND last_checked_at IS NULL`)).to.equal(0)
    })

    it('a run asks each open payment once, even one the gateway may be asked about again at once (a card)', async () => {
      // Cards have no pace at the gateway: a payment asked on page 1 would be due again when a later page
      // reads past it, were the run not bounded by its start.
      await stuck('CARD', 120, 'card', 'pending')
      fake.requests.length = 0
      const { reconcilePayments } = await import('../../jobs/reconcile.ts')
      const run = await reconcilePayments({ services: ps.services, log: createLogger('silent') }, { batch: 25 })
      expect(run.ran).to.equal(true)
      const asked = fake.requests.filter((r) => r.path.startsWith('/transaction/verify/')).map((r) => r.path.slice('/transaction/verify/'.length))
      expect(asked).to.have.length(120)
      expect(new Set(asked).size).to.equal(120)
    })
  })

  describe('daily reconciliation', () => {
    it('finds each planted mismatch, and nothing on clean data; runs are kept', async () => {
      const today = new Date()
      // Clean: one paid (webhook), one declined, one still waiting.
      await paid()
      const declined = await order()
      fake.complete(declined.payment.transactionId, 'failed')
      await allowCheck(declined.payment.transactionId)
      await ps.services.payments.refresh(declined.payment.transactionId)
      await order()
      const clean = await ps.services.payments.reconcileDay(today)
      expect(clean).to.include({ mismatches: 0, gatewayCount: 3, localCount: 3 })
      expect(await count(`payment_issues WHERE kind = 'recon_mismatch'`)).to.equal(0)

      // Planted: paid there but EXPIRED here (no webhook came), SUCCESS here but abandoned there,
      // amounts that differ, and a payment the shop never issued.
      const lost = await order()
      const lostTid = lost.payment.transactionId
      await sql(`UPDATE payments SET status = 'EXPIRED', settled_at = now() WHERE transaction_id = :tid RETURNING id`, { tid: lostTid })
      fake.complete(lostTid, 'success')
      const ghost = await order()
      await sql(`UPDATE payments SET status = 'SUCCESS', settled_at = now() WHERE transaction_id = :tid RETURNING id`, { tid: ghost.payment.transactionId })
      const differ = await paid()
      fake.complete(differ.tid, 'success', { amount: 450 })
      fake.plant({ reference: 'STRANGER-1', amount: 700 })

      fake.maxPerPage = 2
      fake.requests.length = 0
      const run = await ps.services.payments.reconcileDay(today)
      expect(run.mismatches).to.equal(4)
      // Paystack's list is read page by page: 7 transactions, 2 a page.
      expect(fake.requests.filter((r) => r.path === '/transaction').map((r) => r.query.get('page'))).to.deep.equal(['1', '2', '3', '4'])
      expect(run.gatewayCount).to.equal(7)
      const issues = await sql<{ key: string; transaction_id: string }>(
        `SELECT key, transaction_id FROM payment_issues WHERE kind = 'recon_mismatch' ORDER BY key`
      )
      const day = today.toISOString().slice(0, 10)
      expect(issues.map((i) => i.key).sort()).to.deep.equal(
        [
          `${day}:amount:${differ.tid}`,
          `${day}:not_paid_there:${ghost.payment.transactionId}`,
          `${day}:not_success_here:${lostTid}`,
          `${day}:unknown:STRANGER-1`
        ].sort()
      )
      // Paid there but not here: settled through the one path (late money).
      expect((await payment(lostTid)).status).to.equal('SUCCESS')
      expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: lost.id })).to.equal(1)
      const res = await (await admin()).get('/api/admin/payments/attention')
      expect(res.body.items.filter((i: any) => i.kind === 'recon_mismatch')).to.have.length(4)
      expect(res.body.runs.map((r: any) => [r.status, r.mismatches])).to.deep.equal([
        ['DONE', 4],
        ['DONE', 0]
      ])
    })
  })

  describe('vouchers', () => {
    it('Telecel: the gateway asks for a voucher, the payer types it, and the payment ends SUCCESS', async () => {
      fake.otpProviders.add('vod')
      const o = await order({ payerPhone: '0501234567', payerNetwork: 'TELECEL' })
      const tid = o.payment.transactionId
      expect(o.payment.needsCode).to.equal('otp')
      expect(o.payment.message).to.match(/\*110#/)
      const bad = await client().post(`/api/payment/${tid}/code`, { code: '000000' })
      expect(bad.status).to.equal(200)
      expect(bad.body.needsCode).to.equal('otp')
      expect(bad.body.message).to.match(/invalid voucher/i)
      expect((await client().post(`/api/payment/${tid}/code`, { code: '' })).status).to.equal(400)
      const ok = await client().post(`/api/payment/${tid}/code`, { code: '123456' })
      expect(ok.body.needsCode).to.equal(null)
      expect(fake.requests.filter((r) => r.path === '/charge/submit_otp').map((r) => r.body)).to.deep.include({ otp: '123456', reference: tid })
      fake.complete(tid, 'success')
      await allowCheck(tid)
      expect((await client().get(`/api/payment/status/${tid}`)).body.paymentStatus).to.equal('SUCCESS')
    })
  })
})
