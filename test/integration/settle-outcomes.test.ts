import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { bootOnPaystack } from '../helpers/instance.ts'
import { startFakePaystack, type FakePaystack } from '../helpers/fake-paystack.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// What one settlement leaves behind, as the payer's callback reads it straight from settlement's answer:
// the status, the refund, the note for the admins. Each test pays its own card payment, so the tests share
// one database and one instance (mutation testing reruns this file for every mutant of settle.ts).
describe('settlement outcomes', function () {
  this.timeout(60_000)
  let fake: FakePaystack
  let ps: Running
  const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
  const count = async (from: string, replacements: Record<string, unknown> = {}) =>
    Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, replacements))[0]!.n)
  const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
  // The payer's browser: a payment's callback answers only the browser that started it.
  let payer: Client
  /** A data order paid by card (5 GHS), its payment still open. */
  const cardOrder = async () => {
    const res = await payer.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', email: 'kojo@example.com' })
    expect(res.status, res.text).to.equal(201)
    return { orderId: res.body.id as number, tid: res.body.payment.transactionId as string }
  }
  /** The payer back from the checkout: the gateway is asked and its word settled; the answer is settlement's row. */
  const callback = async (tid: string) => {
    const res = await payer.get(`/api/webhooks/paystack?reference=${tid}`)
    expect(res.status, res.text).to.equal(200)
    return res.body as { status: string; paymentStatus: string; afaId: number | null }
  }
  const webhook = async (tid: string) => {
    const { body, signature } = fake.webhook(tid)
    const res = await fetch(`${ps.url}/api/webhooks/paystack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-paystack-signature': signature },
      body
    })
    expect(res.status).to.equal(200)
  }
  const refunds = (tid: string) =>
    sql<{ kind: string; amount_pesewas: number; reason: string }>('SELECT kind, amount_pesewas, reason FROM refunds WHERE transaction_id = :tid', { tid })
  const issues = (tid: string) =>
    sql<{ kind: string; summary: string; action_taken: string; details: Record<string, unknown> }>(
      'SELECT kind, summary, action_taken, details FROM payment_issues WHERE transaction_id = :tid ORDER BY kind',
      { tid }
    )
  const failedAudits = (tid: string) => count(`audit_logs WHERE action = 'PAYMENT_FAILED' AND resource_id = :tid`, { tid })
  const orderPayment = async (orderId: number) =>
    (await sql<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = :orderId', { orderId }))[0]!.payment_status
  /** The reconcile job gives up on an unanswered payment past its window: EXPIRED, the order with it. */
  const expire = async (tid: string) => {
    await sql(`UPDATE payments SET created_at = now() - interval '2 hours' WHERE transaction_id = :tid RETURNING id`, { tid })
    const { reconcilePayments } = await import('../../jobs/reconcile.ts')
    await reconcilePayments({ services: ps.services, log: createLogger('silent') })
    expect((await ps.services.payments.load(tid))!.status).to.equal('EXPIRED')
  }

  before(async () => {
    await resetDb()
    fake = await startFakePaystack('sk_test_x')
    ps = await bootOnPaystack(fake)
    payer = new Client(ps.url)
    await ps.services.settings.update({ paymentGateway: 'paystack', afaRegistrationFee: 12.5 }, {})
    app().services.settings.invalidate()
  })
  after(async () => {
    await ps?.stop()
    await fake?.close()
  })
  // The tests share the database: only the per-visitor order limit would carry over.
  beforeEach(() => sql('DELETE FROM rate_limiter_flexible'))

  it('an exact payment: SUCCESS, nothing refunded, nothing for the admins', async () => {
    const { tid } = await cardOrder()
    fake.complete(tid, 'success')
    expect(await callback(tid)).to.include({ status: 'success', paymentStatus: 'SUCCESS' })
    expect(await refunds(tid)).to.deep.equal([])
    expect(await issues(tid)).to.deep.equal([])
  })

  describe('a success the money does not bear out fails the payment and gives back what came in', () => {
    const cases = [
      {
        name: '1 pesewa short',
        paid: { amount: 499 },
        status: 'REFUND_PENDING',
        refunded: 499,
        summary: 'Paid GHS 4.99, less than the GHS 5.00 due',
        details: { due: 5, paid: 4.99, currency: 'GHS' }
      },
      {
        name: 'in no currency',
        paid: { currency: null },
        status: 'REFUND_PENDING',
        refunded: 500,
        summary: 'The gateway did not say in which currency it was paid',
        details: { due: 5, paid: 5, currency: null }
      },
      {
        name: 'of an amount that is no whole number of pesewas',
        paid: { amount: 499.5 },
        status: 'REFUND_PENDING',
        refunded: 500,
        summary: 'The gateway did not say how much was paid',
        details: { due: 5, paid: null, currency: 'GHS' }
      },
      {
        name: 'of a negative amount',
        paid: { amount: -100 },
        status: 'REFUND_PENDING',
        refunded: 500,
        summary: 'The gateway did not say how much was paid',
        details: { due: 5, paid: null, currency: 'GHS' }
      },
      {
        name: 'of nothing at all',
        paid: { amount: 0 },
        status: 'FAILED',
        refunded: null,
        summary: 'Paid GHS 0.00, less than the GHS 5.00 due',
        details: { due: 5, paid: 0, currency: 'GHS' }
      }
    ]
    for (const c of cases) {
      it(`${c.name}: ${c.status}, ${c.refunded === null ? 'nothing refunded' : `${c.refunded} pesewas refunded`}, the admins told why`, async () => {
        const { orderId, tid } = await cardOrder()
        fake.complete(tid, 'success', c.paid)
        expect(await callback(tid)).to.include({ status: 'failed', paymentStatus: c.status })
        // Nothing was delivered: the order failed with its payment.
        expect(await orderPayment(orderId)).to.equal('FAILED')
        expect(await failedAudits(tid)).to.equal(1)
        expect((await refunds(tid)).map((r) => [r.kind, r.amount_pesewas])).to.deep.equal(c.refunded === null ? [] : [['full', c.refunded]])
        expect(await issues(tid)).to.deep.equal([
          {
            kind: 'wrong_amount',
            summary: c.summary,
            action_taken:
              c.refunded === null ? 'Payment failed; nothing to refund' : 'Payment failed and the money that came in is being refunded automatically',
            details: c.details
          }
        ])
      })
    }
  })

  describe('late money', () => {
    it('a success after the payment FAILED: settled as late, the order proceeds, the admins told', async () => {
      const { orderId, tid } = await cardOrder()
      fake.complete(tid, 'failed')
      expect(await callback(tid)).to.include({ paymentStatus: 'FAILED' })
      fake.complete(tid, 'success')
      await webhook(tid)
      expect((await ps.services.payments.load(tid))!.status).to.equal('SUCCESS')
      expect(await orderPayment(orderId)).to.equal('SUCCESS')
      expect(await issues(tid)).to.deep.equal([
        {
          kind: 'late_success',
          summary: 'Payment succeeded after it was FAILED',
          action_taken: 'Settled automatically: the purchase proceeds',
          details: { previousStatus: 'FAILED', purpose: 'data' }
        }
      ])
    })

    it("a closed payment's later word that is no success changes nothing (an expiry racing the gateway's failure)", async () => {
      const { tid } = await cardOrder()
      fake.complete(tid, 'failed')
      expect(await callback(tid)).to.include({ paymentStatus: 'FAILED' })
      const out = await ps.services.payments.settle(tid, { status: 'EXPIRED', message: 'Payment expired' })
      expect(out.settled).to.equal(false)
      expect((await ps.services.payments.load(tid))!.status).to.equal('FAILED')
      expect(await issues(tid)).to.deep.equal([])
    })

    it('a late success short of the price: refunded, and the purchase that had closed is not failed again', async () => {
      const { orderId, tid } = await cardOrder()
      await expire(tid)
      const audited = await failedAudits(tid)
      fake.complete(tid, 'success', { amount: 499 })
      expect(await callback(tid)).to.include({ paymentStatus: 'REFUND_PENDING' })
      expect((await refunds(tid)).map((r) => [r.kind, r.amount_pesewas])).to.deep.equal([['full', 499]])
      expect(await failedAudits(tid)).to.equal(audited)
      expect(await orderPayment(orderId)).to.equal('EXPIRED')
    })

    it('a late success that cannot be honoured: refunded in full at once, the payer told so', async () => {
      const { orderId, tid } = await cardOrder()
      await expire(tid)
      await sql(`UPDATE orders SET payment_status = 'SUCCESS' WHERE id = :orderId RETURNING id`, { orderId }) // honoured some other way
      fake.complete(tid, 'success')
      expect(await callback(tid)).to.include({ paymentStatus: 'REFUND_PENDING' })
      expect(await refunds(tid)).to.deep.equal([
        { kind: 'full', amount_pesewas: 500, reason: 'Paid after the payment had closed and the purchase could not be honoured' }
      ])
    })
  })

  describe('a success that cannot be honoured is refunded in full, saying why', () => {
    it('an order already paid another way', async () => {
      const { orderId, tid } = await cardOrder()
      await sql(`UPDATE orders SET payment_status = 'SUCCESS' WHERE id = :orderId RETURNING id`, { orderId })
      fake.complete(tid, 'success')
      expect(await callback(tid)).to.include({ paymentStatus: 'REFUND_PENDING' })
      expect(await refunds(tid)).to.deep.equal([{ kind: 'full', amount_pesewas: 500, reason: 'Paid for something already paid' }])
    })

    it('a checker card sold out before the money came', async () => {
      const productId = await checkerWithStock(await adminClient(), 1)
      const buy = async () => {
        const res = await payer.post('/api/vouchers/orders', { productId, quantity: 1, payFrom: 'card', email: 'kojo@example.com' })
        expect(res.status, res.text).to.equal(201)
        return res.body.transactionId as string
      }
      const first = await buy()
      const second = await buy()
      for (const tid of [first, second]) fake.complete(tid, 'success')
      expect(await callback(first)).to.include({ paymentStatus: 'SUCCESS' })
      expect(await callback(second)).to.include({ paymentStatus: 'REFUND_PENDING' })
      expect(await refunds(second)).to.deep.equal([{ kind: 'full', amount_pesewas: 2000, reason: 'Out of stock: no card could be supplied' }])
    })
  })

  it("AFA by card: the payer's callback carries the registration recorded in the settlement", async () => {
    const form = { fullName: 'Yaw Boateng', ghCard: 'GHA-000111222-3', phone: '0241112222', email: 'yaw@example.com' }
    const pay = await payer.post('/api/payment/request', { type: 'afa_registration', ...form })
    expect(pay.status, pay.text).to.equal(200)
    const tid = pay.body.transactionId as string
    fake.complete(tid, 'success')
    const cb = await callback(tid)
    const [reg] = await sql<{ id: number }>('SELECT id FROM afa_registrations WHERE payment_transaction_id = :tid', { tid })
    expect(cb).to.include({ paymentStatus: 'SUCCESS', afaId: reg!.id })
  })
})
