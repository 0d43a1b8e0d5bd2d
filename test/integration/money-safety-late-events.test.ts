import { expect } from 'chai'
import { createLogger } from '../../server/lib/logger.ts'
import { paystackShop } from '../helpers/paystack-shop.ts'

describe('money safety with Paystack (fake Paystack server)', function () {
  this.timeout(60_000)
  const shop = paystackShop()
  const { sql, count, postWebhook, allowCheck, payment, admin, order, paid } = shop

  describe('late money', () => {
    it('approval after expiry: the order is settled automatically and listed on the attention page', async () => {
      const o = await order()
      const tid = o.payment.transactionId
      await sql(
        `UPDATE payments SET created_at = now() - interval '10 minutes', last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`,
        { tid }
      )
      const { reconcilePayments } = await import('../../jobs/reconcile.ts')
      await reconcilePayments({ services: shop.ps.services, log: createLogger('silent') })
      expect((await payment(tid)).status).to.equal('EXPIRED')
      shop.fake.complete(tid, 'success')
      const { body, signature } = shop.fake.webhook(tid)
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
      await reconcilePayments({ services: shop.ps.services, log: createLogger('silent') })
      expect((await payment(tid)).status).to.equal('EXPIRED')
      shop.fake.complete(tid, 'success')
      await allowCheck(tid)
      await reconcilePayments({ services: shop.ps.services, log: createLogger('silent') })
      expect((await payment(tid)).status).to.equal('SUCCESS')
      expect(await count(`orders WHERE id = :id AND payment_status = 'SUCCESS'`, { id: o.id })).to.equal(1)
      expect(await count(`payment_issues WHERE kind = 'late_success' AND transaction_id = :tid`, { tid })).to.equal(1)
    })

    it('a late success that cannot be honoured (the order was already paid another way) is refunded automatically', async () => {
      const o = await order()
      const tid = o.payment.transactionId
      await sql(`UPDATE payments SET status = 'EXPIRED' WHERE transaction_id = :tid RETURNING id`, { tid })
      await sql(`UPDATE orders SET payment_status = 'SUCCESS' WHERE id = :id RETURNING id`, { id: o.id }) // honoured some other way
      shop.fake.complete(tid, 'success')
      const { body, signature } = shop.fake.webhook(tid)
      await postWebhook(body, signature)
      await shop.ps.services.queue.drain()
      expect((await payment(tid)).status).to.equal('REFUNDED')
      expect(shop.fake.refunds.map((r) => r.amount)).to.deep.equal([500])
      const items = (await (await admin()).get('/api/admin/payments/attention')).body.items
      expect(items.find((i: any) => i.kind === 'late_success')?.actionTaken).to.match(/Refunded automatically/)
    })
  })

  describe('events the shop does not recognise are kept', () => {
    it('a signed charge.success for an unknown reference and a charge.dispute.create: 200, stored once when sent 3 times, on the attention page', async () => {
      const unknown = shop.fake.event('charge.success', { id: 99, reference: 'NOT-OURS-1', status: 'success', amount: 500, currency: 'GHS' })
      const { tid } = await paid()
      const dispute = shop.fake.event('charge.dispute.create', { id: 7, category: 'fraud', transaction: { id: 1, reference: tid } })
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
})
