import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// Each money-safety case can be seen on a fresh machine (the simulator; docs/payments.md).
describe('simulator modes', () => {
  beforeEach(resetDb)
  const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
  // The payer's browser: only it (or someone giving the paying phone) may act on its payment.
  let payer: Client
  const order = async (payerPhone: string, payerNetwork = 'MTN') => {
    payer = new Client()
    const res = await payer.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0201112222', payerPhone, payerNetwork })
    expect(res.status, res.text).to.equal(201)
    return res.body as { id: number; payment: any }
  }
  const status = async (tid: string) => (await app().services.payments.load(tid))!.status

  it('...0001: the charge start times out, the prompt still reaches the phone, and approving settles it', async () => {
    const o = await order('0241230001')
    expect(o.payment).to.include({ paymentStatus: 'PENDING' })
    expect(o.payment.message).to.match(/Waiting for approval/)
    expect((await app().services.simulator.prompts('0241230001')).map((p) => p.reference)).to.deep.equal([o.payment.transactionId])
    await app().services.simulator.approve(o.payment.transactionId)
    expect(await status(o.payment.transactionId)).to.equal('SUCCESS')
  })

  it('...0003: approval after expiry is settled late and listed', async () => {
    const o = await order('0241230003')
    const tid = o.payment.transactionId
    await app().services.payments.settle(tid, { status: 'EXPIRED', message: 'Payment expired' })
    expect((await app().services.simulator.prompts('0241230003')).map((p) => p.reference)).to.deep.equal([tid])
    await app().services.simulator.approve(tid)
    expect(await status(tid)).to.equal('SUCCESS')
    const [order2] = await app().db.sequelize.query<{ payment_status: string }>('SELECT payment_status FROM orders WHERE id = :id', {
      replacements: { id: o.id },
      type: QueryTypes.SELECT
    })
    expect(order2!.payment_status).to.equal('SUCCESS')
    expect((await app().services.payments.attention.list()).map((i) => i.kind)).to.include('late_success')
    // Other numbers cannot approve after expiry.
    const other = await order('0241239999')
    await app().services.payments.settle(other.payment.transactionId, { status: 'EXPIRED', message: 'Payment expired' })
    await app()
      .services.simulator.approve(other.payment.transactionId)
      .then(
        () => expect.fail('approved'),
        (err) => expect(err.status).to.equal(409)
      )
  })

  it('refunds succeed by default and fail for ...0002, where the admin can retry', async () => {
    const ok = await order('0241234567')
    await app().services.simulator.approve(ok.payment.transactionId)
    await app().services.payments.refund(ok.payment.transactionId, 'Changed mind')
    await app().services.queue.drain()
    expect(await status(ok.payment.transactionId)).to.equal('REFUNDED')

    const bad = await order('0241230002')
    await app().services.simulator.approve(bad.payment.transactionId)
    await app().services.payments.refund(bad.payment.transactionId, 'Changed mind')
    await app().services.queue.drain()
    expect(await status(bad.payment.transactionId)).to.equal('REFUND_FAILED')
    expect((await app().services.payments.attention.list()).find((i) => i.kind === 'refund_failed')).to.include({ transactionId: bad.payment.transactionId })
  })

  it('Telecel payers are asked for a voucher before the prompt appears', async () => {
    const o = await order('0501234567', 'TELECEL')
    expect(o.payment).to.include({ paymentStatus: 'IN_PROGRESS', needsCode: 'otp' })
    expect(await app().services.simulator.prompts('0501234567')).to.deep.equal([])
    const r = await payer.post(`/api/payment/${o.payment.transactionId}/code`, { code: '654321' })
    expect(r.body.needsCode).to.equal(null)
    expect(await app().services.simulator.prompts('0501234567')).to.have.length(1)
  })

  it('the new calls answer bad input and strangers with 4xx and a clear message, never 500', async () => {
    const visitor = new Client()
    expect((await visitor.get('/api/admin/payments/attention')).status).to.equal(401)
    expect((await visitor.post('/api/admin/orders/1/refund', { reason: 'x' })).status).to.equal(401)
    const admin = await adminClient()
    for (const [path, body, status, error] of [
      ['/api/admin/orders/abc/refund', { reason: 'x' }, 400, /Invalid order/],
      ['/api/admin/orders/999999/refund', { reason: 'x' }, 404, /Order not found/],
      ['/api/admin/refunds/0/retry', {}, 400, /Invalid refund/],
      ['/api/admin/refunds/12345/retry', {}, 409, /Only a failed refund/],
      ['/api/admin/payments/attention/nonsense/1/resolve', {}, 400, /Invalid item|Only issues/],
      ['/api/admin/payments/attention/issue/77/resolve', {}, 404, /not found/]
    ] as const) {
      const r = await admin.post(path, body)
      expect(r.status, path).to.equal(status)
      expect(String(r.body.error ?? r.body.message), path).to.match(error)
    }
    const o = await order('0241234567')
    const pending = await admin.post(`/api/admin/orders/${o.id}/refund`, { reason: 'x' })
    expect(pending.status).to.equal(409)
    expect(pending.body.error).to.equal('Only a paid order can be refunded')
    expect((await visitor.post('/api/payment/123456789012345/code', { code: '123456' })).status).to.equal(404)
    expect((await visitor.post('/api/payment/bad%20id/code', { code: '123456' })).status).to.equal(400)
    expect((await visitor.post(`/api/payment/${o.payment.transactionId}/code`, { code: '123456' })).status).to.equal(404) // a stranger's browser
    expect((await payer.post(`/api/payment/${o.payment.transactionId}/code`, { code: '<script>' })).status).to.equal(400)
    const notWaiting = await payer.post(`/api/payment/${o.payment.transactionId}/code`, { code: '123456' })
    expect(notWaiting.status).to.equal(409)
    expect(notWaiting.body.error).to.equal('This payment is not waiting for a code')
  })
})
