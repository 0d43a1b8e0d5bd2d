import { expect } from 'chai'
import { createLogger } from '../../server/lib/logger.ts'
import { newTransactionId } from '../../server/services/payments/index.ts'
import type { Trouble } from '../helpers/fake-paystack.ts'
import { paystackShop } from '../helpers/paystack-shop.ts'

describe('money safety with Paystack (fake Paystack server)', function () {
  this.timeout(60_000)
  const shop = paystackShop()
  const { client, sql, count, mtn1gb, postWebhook, allowCheck, payment, admin, order } = shop

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
        if (trouble === 'duplicate') shop.fake.plant({ reference: tid, amount: 500, status: 'pay_offline' })
        else shop.fake.trouble(trouble)
        const o = await order({ transactionId: tid })
        expect(o.payment.paymentStatus).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
        expect(o.payment.message).to.match(/waiting for approval/i)
        expect(o.payment.message).to.not.match(/fail/i)
        const status = await client().get(`/api/payment/status/${tid}`)
        expect(status.body.paymentStatus).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
        expect((await payment(tid)).details.unclear).to.be.a('string')

        shop.fake.complete(tid, 'success') // the payer approved the prompt on the phone
        await allowCheck(tid)
        await sql(`UPDATE payments SET created_at = now() - interval '90 seconds' WHERE transaction_id = :tid RETURNING id`, { tid })
        const { reconcilePayments } = await import('../../jobs/reconcile.ts')
        await reconcilePayments({ services: shop.ps.services, log: createLogger('silent') })
        await allowCheck(tid)
        await reconcilePayments({ services: shop.ps.services, log: createLogger('silent') })
        expect((await payment(tid)).status).to.equal('SUCCESS')
        expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(1)
        expect(await count(`audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id = :tid`, { tid })).to.equal(1)
        expect(shop.fake.requests.some((r) => r.path === `/transaction/verify/${tid}`)).to.equal(true)
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
        shop.fake.complete(tid, 'success', opts)
        const { body, signature } = shop.fake.webhook(tid, opts)
        const answers = await Promise.all(Array.from({ length: 5 }, () => postWebhook(body, signature)))
        expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 200, 200, 200])
        await shop.ps.services.queue.drain()
        expect(shop.fake.refunds.map((r) => [r.reference, r.amount])).to.deep.equal([[tid, refunded]])
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
      shop.fake.complete(tid, 'success', { amount: 600 })
      const { body, signature } = shop.fake.webhook(tid)
      await Promise.all(Array.from({ length: 3 }, () => postWebhook(body, signature)))
      await shop.ps.services.queue.drain()
      expect((await payment(tid)).status).to.equal('SUCCESS')
      expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(1)
      expect(shop.fake.refunds.map((r) => r.amount)).to.deep.equal([100])
    })
  })
})
