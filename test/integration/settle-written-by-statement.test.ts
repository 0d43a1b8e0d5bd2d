import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { onFakePaystack, paystackOrder, postPaystackWebhook } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

// A gateway's success writes the order's text and settlement's PAYMENT_SUCCESS entry in its settling statement
// (ADR 0086), fed by the order that statement paid: they exist exactly when the payment was settled by it.
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const entries = (tid: string) =>
  sql<{ action: string; severity: string; details: Record<string, unknown> }>(
    "SELECT action, severity, details FROM audit_logs WHERE resource = 'PAYMENT' AND resource_id = :tid ORDER BY id",
    { tid }
  )
const texts = () => sql<{ to_phone: string; message: string; status: string }>('SELECT to_phone, message, status FROM sms_outbox ORDER BY id')
/** Statements of their own for a text or an audit entry (not CTEs of the settling statement). */
const alone = (sent: string[], table: string) => sent.filter((s) => s.startsWith(`INSERT INTO ${table}`))
const approved = (amountPesewas: number) => ({ status: 'SUCCESS' as const, message: 'Approved', amountPesewas, currency: 'GHS' })

/** A visitor's order waiting for the payer (the simulator's prompt sent). */
async function pendingOrder(recipientNumber = '0241112233') {
  const pkg = await createPackage({ priceUserPesewas: 450 })
  const res = await new Client().post('/api/orders', { packageId: pkg.id, recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(res.status, res.text).to.equal(201)
  return { id: res.body.id as number, tid: res.body.payment.transactionId as string, amount: 450 }
}

describe("a gateway settlement's text and audit entry, written by its settling statement", function () {
  this.timeout(30_000)

  describe('over a Paystack webhook', () => {
    const on = onFakePaystack('sk_test_x')
    const postWebhook = (body: string, signature: string) => postPaystackWebhook(on.ps(), body, signature)

    it('writes both in the settling statement, as effects would; a second webhook for the same payment writes neither', async () => {
      const { id, tid } = await paystackOrder(on.ps())
      on.fake().complete(tid, 'success')
      const first = on.fake().webhook(tid)
      const { sent } = await statementsSent(async () => expect((await postWebhook(first.body, first.signature)).status).to.equal(200))
      expect(alone(sent, 'sms_outbox'), sent.join('\n')).to.deep.equal([])
      expect(alone(sent, 'audit_logs'), sent.join('\n')).to.deep.equal([])
      const [settling] = sent.filter((s) => /\bUPDATE payments SET status = \$2\b/.test(s))
      expect(settling)
        .to.match(/INSERT INTO sms_outbox/)
        .and.to.match(/INSERT INTO audit_logs/)
      expect(await texts()).to.deep.equal([
        { to_phone: '0241234567', message: 'Your order for 1.0GB MTN data to 0201112222 has been received.', status: 'QUEUED' }
      ])
      const [payment] = await sql<{ ext: string | null; amount: number; message: string }>(
        'SELECT ext_transaction_id AS ext, amount_pesewas AS amount, message FROM payments WHERE transaction_id = :tid',
        { tid }
      )
      const written = await entries(tid)
      expect(written).to.have.length(1)
      expect(written[0]!.action).to.equal('PAYMENT_SUCCESS')
      expect(written[0]!.severity).to.equal('LOW')
      expect(written[0]!.details).to.deep.equal({
        transactionId: tid,
        purpose: 'data',
        amount: payment!.amount / 100,
        gateway: 'paystack',
        method: 'momo',
        extTransactionId: payment!.ext,
        status: 'SUCCESS',
        message: payment!.message,
        orderId: id,
        commissionRecorded: true,
        deliveryQueued: true
      })
      // The same event again, and another event of the same payment (another id at the gateway).
      expect((await postWebhook(first.body, first.signature)).status).to.equal(200)
      const again = JSON.parse(first.body) as { event: string; data: Record<string, unknown> }
      const other = on.fake().event(again.event, { ...again.data, id: 987654 })
      expect((await postWebhook(other.body, other.signature)).status).to.equal(200)
      expect(await texts()).to.have.length(1)
      expect(await entries(tid)).to.have.length(1)
    })
  })

  describe('the fallbacks, where effects write them after the statement as before', () => {
    beforeEach(resetDb)

    it('with no order-received template: no text, and the entry still written by the statement', async () => {
      const o = await pendingOrder()
      expect((await (await adminClient()).put('/api/settings', { smsOrderCreatedUser: '' })).status).to.equal(200)
      const { sent } = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount)))
      expect(await texts()).to.deep.equal([])
      expect(alone(sent, 'audit_logs'), sent.join('\n')).to.deep.equal([])
      expect((await entries(o.tid)).map((e) => e.action)).to.deep.equal(['PAYMENT_SUCCESS'])
    })

    it('an order whose recipient changed after the payment was read: its text says the recipient as it is now', async () => {
      const o = await pendingOrder('0241112233')
      const read = await app().services.payments.loadWithOrder(o.tid)
      await sql("UPDATE orders SET recipient_number = '0249998888' WHERE id = :id", { id: o.id })
      const { out, sent } = await statementsSent(() =>
        app().services.payments.settle(o.tid, approved(o.amount), {}, { before: read!.row, beforeOrder: read!.order })
      )
      expect(out.settled).to.equal(true)
      expect(alone(sent, 'sms_outbox'), sent.join('\n')).to.have.length(1)
      expect((await texts()).map((t) => t.message)).to.deep.equal(['Your order for 1.0GB MTN data to 0249998888 has been received.'])
      expect((await entries(o.tid)).map((e) => e.action)).to.deep.equal(['PAYMENT_SUCCESS'])
    })

    it('a late success (the payment had expired): its entry is the late one, HIGH, written once by effects', async () => {
      const o = await pendingOrder()
      await sql("UPDATE payments SET status = 'EXPIRED' WHERE transaction_id = :tid", { tid: o.tid })
      await sql("UPDATE orders SET payment_status = 'EXPIRED' WHERE id = :id", { id: o.id })
      const { out } = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount)))
      expect(out.settled).to.equal(true)
      const written = await entries(o.tid)
      expect(written.map((e) => [e.action, e.severity])).to.deep.equal([['PAYMENT_SUCCESS', 'HIGH']])
      expect(written[0]!.details).to.include({ late: true, honoured: true })
      expect(await texts()).to.have.length(1)
    })

    it('a success of the wrong amount: no text and no PAYMENT_SUCCESS; the failure is recorded and goes to the attention list', async () => {
      const o = await pendingOrder()
      const { out } = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount - 50)))
      expect(out.settled).to.equal(true)
      expect(out.row!.status).to.equal('REFUND_PENDING')
      expect(await texts()).to.deep.equal([])
      expect((await entries(o.tid)).map((e) => e.action).filter((a) => a.startsWith('PAYMENT_'))).to.deep.equal(['PAYMENT_FAILED'])
      expect(await sql('SELECT kind FROM payment_issues WHERE transaction_id = :tid', { tid: o.tid })).to.deep.equal([{ kind: 'wrong_amount' }])
    })
  })
})
