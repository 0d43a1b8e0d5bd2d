import { expect } from 'chai'
import { createLogger } from '../../server/lib/logger.ts'
import { paystackShop } from '../helpers/paystack-shop.ts'

describe('money safety with Paystack (fake Paystack server)', function () {
  this.timeout(60_000)
  const shop = paystackShop()
  const { sql, count, allowCheck, payment, admin, order, paid } = shop

  describe('the reconcile job is fair', () => {
    /** `n` open payments older than a reconcile run looks at, never checked, that the gateway keeps answering `status`. */
    async function stuck(prefix: string, n: number, method: 'momo' | 'card', status: 'pay_offline' | 'pending') {
      await sql(
        `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas, payer_phone, payer_network, email, details, created_at, last_checked_at)
         SELECT :prefix || lpad(g::text, 4, '0'), 'data', 'paystack', :method, 'PENDING', 500, '0241234567', 'MTN', 'a@example.com', '{}', now() - interval '3 minutes' - g * interval '1 second', NULL
           FROM generate_series(1, :n) g RETURNING id`,
        { prefix, method, n }
      )
      for (let g = 1; g <= n; g++) shop.fake.plant({ reference: `${prefix}${String(g).padStart(4, '0')}`, amount: 500, status })
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
      shop.fake.complete(tid, 'success')
      shop.fake.requests.length = 0
      const { reconcilePayments } = await import('../../jobs/reconcile.ts')
      const run = await reconcilePayments({ services: shop.ps.services, log: createLogger('silent') }, { batch: 50 })
      expect(run.ran && run.result.checked).to.equal(1)
      expect((await payment(tid)).status).to.equal('SUCCESS')
      // Every open payment was asked once, the never-checked ones first.
      const asked = shop.fake.requests.filter((r) => r.path.startsWith('/transaction/verify/')).map((r) => r.path.slice('/transaction/verify/'.length))
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
      shop.fake.requests.length = 0
      const { reconcilePayments } = await import('../../jobs/reconcile.ts')
      const run = await reconcilePayments({ services: shop.ps.services, log: createLogger('silent') }, { batch: 25 })
      expect(run.ran).to.equal(true)
      const asked = shop.fake.requests.filter((r) => r.path.startsWith('/transaction/verify/')).map((r) => r.path.slice('/transaction/verify/'.length))
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
      shop.fake.complete(declined.payment.transactionId, 'failed')
      await allowCheck(declined.payment.transactionId)
      await shop.ps.services.payments.refresh(declined.payment.transactionId)
      await order()
      const clean = await shop.ps.services.payments.reconcileDay(today)
      expect(clean).to.include({ mismatches: 0, gatewayCount: 3, localCount: 3 })
      expect(await count(`payment_issues WHERE kind = 'recon_mismatch'`)).to.equal(0)

      // Planted: paid there but EXPIRED here (no webhook came), SUCCESS here but abandoned there,
      // amounts that differ, and a payment the shop never issued.
      const lost = await order()
      const lostTid = lost.payment.transactionId
      await sql(`UPDATE payments SET status = 'EXPIRED', settled_at = now() WHERE transaction_id = :tid RETURNING id`, { tid: lostTid })
      shop.fake.complete(lostTid, 'success')
      const ghost = await order()
      await sql(`UPDATE payments SET status = 'SUCCESS', settled_at = now() WHERE transaction_id = :tid RETURNING id`, { tid: ghost.payment.transactionId })
      const differ = await paid()
      shop.fake.complete(differ.tid, 'success', { amount: 450 })
      shop.fake.plant({ reference: 'STRANGER-1', amount: 700 })

      shop.fake.maxPerPage = 2
      shop.fake.requests.length = 0
      const run = await shop.ps.services.payments.reconcileDay(today)
      expect(run.mismatches).to.equal(4)
      // Paystack's list is read page by page: 7 transactions, 2 a page.
      expect(shop.fake.requests.filter((r) => r.path === '/transaction').map((r) => r.query.get('page'))).to.deep.equal(['1', '2', '3', '4'])
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
})
