import { expect } from 'chai'
import { paystackShop } from '../helpers/paystack-shop.ts'

describe('money safety with Paystack (fake Paystack server)', function () {
  this.timeout(60_000)
  const shop = paystackShop()
  const { sql, count, postWebhook, payment, admin, order, paid } = shop

  describe('refunds', () => {
    // Paid orders wait for the admin (manual delivery): an order the vendor may be delivering is never refunded.
    beforeEach(() => shop.ps.services.settings.update({ deliveryMode: 'manual' }, {}))
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
      await Promise.all([shop.ps.services.queue.drain(), shop.ps.services.queue.drain()])
      expect(shop.fake.refunds.map((r) => [r.reference, r.amount])).to.deep.equal([[tid, 500]])
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
        const theirs = shop.fake.refunds
          .filter((r) => r.reference === tid)
          .map((r) => r.amount)
          .sort((x, y) => x - y)
        return { ours: ours.map((r) => [r.kind, r.amount_pesewas]), theirs }
      }
      const overpaid = async () => {
        const o = await order()
        const tid = o.payment.transactionId as string
        shop.fake.complete(tid, 'success', { amount: 600 })
        const { body, signature } = shop.fake.webhook(tid)
        expect((await postWebhook(body, signature)).status).to.equal(200)
        expect((await payment(tid)).status).to.equal('SUCCESS')
        return { id: o.id, tid }
      }

      // One after the other: the excess goes back first, the admin's refund is the rest.
      const one = await overpaid()
      await shop.ps.services.queue.drain()
      expect(await refunded(one.tid)).to.deep.equal({ ours: [['excess', 100]], theirs: [100] })
      const res = await a.post(`/api/admin/orders/${one.id}/refund`, { reason: 'Customer asked' })
      expect(res.status, res.text).to.equal(201)
      expect(res.body.amount).to.equal(5)
      await shop.ps.services.queue.drain()
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
        shop.ps.services.queue.drain(),
        ...[1, 2, 3].map(() => a.post(`/api/admin/orders/${two.id}/refund`, { reason: 'Customer asked' }))
      ])
      expect(clicks.map((c) => c.status).sort()).to.deep.equal([201, 409, 409])
      expect(clicks.find((c) => c.status === 201)!.body.amount).to.equal(5)
      await shop.ps.services.queue.drain()
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
      shop.fake.refundMode = 'lost'
      await shop.ps.services.payments.refund(tid, 'Out of stock')
      await shop.ps.services.queue.drain() // POST /refund times out: outcome unknown, the job fails and is retried
      expect((await payment(tid)).status).to.equal('REFUND_PENDING')
      expect(shop.fake.refunds).to.have.length(1)
      shop.fake.refundMode = 'processed'
      await sql(`UPDATE graphile_worker._private_jobs SET run_at = now() RETURNING id`)
      await shop.ps.services.queue.drain()
      expect(shop.fake.requests.filter((r) => r.method === 'GET' && r.path === '/refund')).to.have.length(1)
      expect(shop.fake.requests.filter((r) => r.method === 'POST' && r.path === '/refund')).to.have.length(1)
      expect(shop.fake.refunds).to.have.length(1)
      expect((await payment(tid)).status).to.equal('REFUNDED')
    })

    it('a delivered order cannot be refunded; the shop setting decides the refund on a failed delivery', async () => {
      const { id, tid } = await paid()
      expect(await shop.ps.services.payments.onDeliveryFailed(id, 'Delivery failed')).to.equal(null)
      await shop.ps.services.settings.update({ refundOnDeliveryFailure: true }, {})
      const r = await shop.ps.services.payments.onDeliveryFailed(id, 'Delivery failed')
      expect(r).to.include({ transactionId: tid, amountPesewas: 500 })
      const second = await paid()
      await sql('UPDATE orders SET delivered = true WHERE id = :id RETURNING id', { id: second.id })
      const res = await (await admin()).post(`/api/admin/orders/${second.id}/refund`, { reason: 'x' })
      expect(res.status).to.equal(409)
    })

    it('a refund Paystack settles later by webhook; a refused refund is listed and can be retried', async () => {
      const { tid } = await paid()
      shop.fake.refundMode = 'pending'
      await shop.ps.services.payments.refund(tid, 'Out of stock')
      await shop.ps.services.queue.drain()
      expect((await payment(tid)).status).to.equal('REFUND_PENDING')
      const rf = shop.fake.refunds[0]!
      const ev = shop.fake.event('refund.processed', { id: rf.id, status: 'processed', transaction_reference: tid, amount: 500, currency: 'GHS' })
      expect((await postWebhook(ev.body, ev.signature)).status).to.equal(200)
      expect((await payment(tid)).status).to.equal('REFUNDED')

      const other = await paid()
      shop.fake.refundMode = 'refuse'
      await shop.ps.services.payments.refund(other.tid, 'Out of stock')
      await shop.ps.services.queue.drain()
      expect((await payment(other.tid)).status).to.equal('REFUND_FAILED')
      const a = await admin()
      const item = (await a.get('/api/admin/payments/attention')).body.items.find((i: any) => i.kind === 'refund_failed')
      expect(item).to.include({ transactionId: other.tid })
      expect(item.actions).to.deep.equal(['retry_refund'])
      shop.fake.refundMode = 'processed'
      expect((await a.post(`/api/admin/refunds/${item.id}/retry`)).status).to.equal(200)
      await shop.ps.services.queue.drain()
      expect((await payment(other.tid)).status).to.equal('REFUNDED')
      expect(shop.fake.refunds.filter((r) => r.reference === other.tid && r.status !== 'failed')).to.have.length(1)
    })
  })
})
