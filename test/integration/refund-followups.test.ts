import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient, Client } from '../helpers/http.ts'
import { onFakePaystack } from '../helpers/instance.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { paidSimulatorOrder } from '../helpers/simulator-order.ts'

// What follows a decided refund: an admin's retry, a failed delivery's refund, the refusals by
// reference, and Paystack's later or unclear answers to the money call.
const sql = async <T extends object = Record<string, any>>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const refunds = () => app().services.payments.refunds
const paymentStatus = async (tid: string) => (await sql<{ status: string }>('SELECT status FROM payments WHERE transaction_id = :tid', { tid }))[0]!.status
const refundJobs = () =>
  sql(
    `SELECT key, max_attempts FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'payments.refund')`
  )
const topUp = (tid: string, status: string) =>
  sql(
    `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas) VALUES (:tid, 'wallet_topup', 'simulator', 'momo', :status, 2000) RETURNING id`,
    { tid, status }
  )

describe('after a refund is decided', () => {
  beforeEach(async () => {
    await resetDb()
    // Paid orders wait for the admin: an order the vendor may be delivering is never refunded.
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
  })

  it("an admin's retry of a refused full refund puts its payment back to pending, queues one job keyed by it and audits who asked", async () => {
    // The simulator refuses refunds to payers whose number ends in 0002.
    const { tid } = await paidSimulatorOrder('0241230002')
    const r = await refunds().refund(tid, 'Customer asked')
    await app().services.queue.drain()
    expect(await paymentStatus(tid)).to.equal('REFUND_FAILED')
    const admin = await adminClient()
    expect((await admin.post(`/api/admin/refunds/${r.id}/retry`)).status).to.equal(200)
    expect(await paymentStatus(tid)).to.equal('REFUND_PENDING')
    expect(await refundJobs()).to.deep.equal([{ key: `refund:${r.id}`, max_attempts: 25 }])
    const [adminUser] = await sql<{ id: number }>('SELECT id FROM users WHERE email = :email', { email: ADMIN.email })
    const retried = await sql(`SELECT user_id, severity, details FROM audit_logs WHERE action = 'REFUND_RETRIED' AND resource_id = :tid`, { tid })
    expect(retried).to.deep.equal([{ user_id: adminUser!.id, severity: 'HIGH', details: { refundId: r.id } }])
  })

  it("a provider's final word is kept to 300 characters on the refund, whole in its audit entry", async () => {
    const { tid } = await paidSimulatorOrder()
    const r = await refunds().refund(tid, 'Customer asked')
    const long = 'x'.repeat(301)
    expect(await refunds().finish(r.id, 'FAILED', long)).to.equal(true)
    expect((await sql('SELECT message FROM refunds WHERE id = :id', { id: r.id }))[0]!.message).to.equal('x'.repeat(300))
    const [failed] = await sql(`SELECT details FROM audit_logs WHERE action = 'REFUND_FAILED' AND resource_id = :tid`, { tid })
    expect(failed!.details.message).to.equal(long)
  })

  it("a failed delivery's refund carries the failure as its reason; an order already refunded is left alone; an unknown order is not found", async () => {
    await app().services.settings.update({ refundOnDeliveryFailure: true }, {})
    const { id, tid } = await paidSimulatorOrder()
    const r = await app().services.payments.onDeliveryFailed(id, 'Delivery failed: the vendor could not deliver')
    expect(r).to.include({ transactionId: tid, reason: 'Delivery failed: the vendor could not deliver' })
    // The admin (or a first failure) refunded it already: a second failure decides nothing, and says so without an error.
    expect(await app().services.payments.onDeliveryFailed(id, 'Delivery failed again')).to.equal(null)
    expect(await sql('SELECT reason FROM refunds')).to.deep.equal([{ reason: 'Delivery failed: the vendor could not deliver' }])
    const missing = await app()
      .services.payments.onDeliveryFailed(999999, 'Delivery failed')
      .then(
        () => null,
        (err: { status?: number; message?: string }) => err
      )
    expect(missing).to.include({ status: 404, message: 'Order not found' })
  })

  it('by reference: a payment not yet paid and one already being refunded are each refused with their own reason', async () => {
    const admin = await adminClient()
    await topUp('555000301', 'PENDING')
    await topUp('555000302', 'REFUND_PENDING')
    const pending = await admin.post('/api/admin/payments/555000301/refund', { reason: 'x' })
    expect([pending.status, pending.body.error]).to.deep.equal([409, 'Only a successful payment can be refunded'])
    const refunding = await admin.post('/api/admin/payments/555000302/refund', { reason: 'x' })
    expect([refunding.status, refunding.body.error]).to.deep.equal([409, 'This payment has already been refunded'])
    expect(await sql('SELECT id FROM refunds')).to.have.length(0)
  })

  it('a paid payment whose refunds already cover what came in is refused with a 409, never a refund of 0', async () => {
    const { id, tid } = await paidSimulatorOrder()
    // The whole amount already decided as an excess refund: nothing is left to give back.
    await sql(
      `INSERT INTO refunds (payment_id, transaction_id, kind, gateway, amount_pesewas, reason, status)
       SELECT id, transaction_id, 'excess', gateway, amount_pesewas, 'Overpaid', 'SENT' FROM payments WHERE transaction_id = :tid RETURNING id`,
      { tid }
    )
    const res = await (await adminClient()).post(`/api/admin/orders/${id}/refund`, { reason: 'Customer asked' })
    expect([res.status, res.body.error]).to.deep.equal([409, 'This payment has already been refunded'])
    expect(await sql('SELECT kind FROM refunds')).to.deep.equal([{ kind: 'excess' }])
    expect(await paymentStatus(tid)).to.equal('SUCCESS')
  })
})

describe("Paystack's answers to a refund (fake Paystack server)", function () {
  this.timeout(60_000)
  const { fake, ps } = onFakePaystack('sk_test_followups', { PAYSTACK_TIMEOUT_MS: 1000 })
  beforeEach(() => {
    fake().refunds.length = 0
    fake().refundMode = 'processed'
    fake().refundTrouble(null)
  })

  async function paid() {
    const packageId = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const placed = await new Client(ps().url).post('/api/orders', { packageId, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(placed.status, placed.text).to.equal(201)
    const tid = placed.body.payment.transactionId as string
    fake().complete(tid, 'success')
    const { body, signature } = fake().webhook(tid)
    const hook = await fetch(`${ps().url}/api/webhooks/paystack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-paystack-signature': signature },
      body
    })
    expect(hook.status).to.equal(200)
    return tid
  }
  const refundRow = async (tid: string) => (await sql('SELECT status, ext_refund_id, message, attempts FROM refunds WHERE transaction_id = :tid', { tid }))[0]

  it('a refund Paystack accepts for later is marked sent with its id there until the word comes', async () => {
    const tid = await paid()
    fake().refundMode = 'pending'
    await ps().services.payments.refund(tid, 'Out of stock')
    await ps().services.queue.drain()
    expect(await refundRow(tid)).to.deep.equal({
      status: 'SENT',
      ext_refund_id: String(fake().refunds[0]!.id),
      message: 'Refund has been queued for processing',
      attempts: 1
    })
  })

  it('when a retried attempt cannot learn whether the first call went through, it sends the refund again', async () => {
    const tid = await paid()
    await ps().services.payments.refund(tid, 'Out of stock')
    fake().refundTrouble({ kind: '502' }) // the money call: no clear answer, nothing made
    await ps().services.queue.drain()
    expect(fake().refunds).to.have.length(0)
    await sql(`UPDATE graphile_worker._private_jobs SET run_at = now() RETURNING id`)
    fake().refundTrouble({ kind: '502' }) // the retry's question (GET /refund): no clear answer either
    await ps().services.queue.drain()
    expect(
      fake()
        .requests.filter((r) => r.path === '/refund')
        .map((r) => r.method)
    ).to.deep.equal(['POST', 'GET', 'POST'])
    expect(fake().refunds).to.have.length(1)
    expect(await refundRow(tid)).to.include({ status: 'PROCESSED', attempts: 2 })
    expect(await paymentStatus(tid)).to.equal('REFUNDED')
  })
})
