import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// A bulk order paid by mobile money (ADR 0039): the batch waits for one payment of its total, with
// nothing debited and no order written; that payment's settlement writes and queues the lines once,
// and a failed or expired payment cancels the batch with nothing delivered.
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const count = async (from: string, r: Record<string, unknown> = {}) => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, r))[0]!.n)
const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)
const decline = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/decline`)
const lines = ['0241000001 1GB', '0241000002 1GB', '0241000003 1GB'].join('\n')

async function agent() {
  const a = await createAgent()
  const c = new Client()
  await c.login(a.user.email, a.password)
  return { ...a, c }
}

describe('bulk orders paid by mobile money', () => {
  beforeEach(async () => {
    await resetDb()
    await app().db.models.Package.destroy({ where: {} })
    await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    app().services.packages.invalidate()
  })

  it('waits for its one payment with nothing debited or ordered; the approval writes and queues the lines, and the success reported 5 times more changes nothing', async () => {
    const { agent: ag, c } = await agent()
    const res = await c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(res.status, res.text).to.equal(201)
    expect(res.body.batch).to.include({ status: 'AWAITING_PAYMENT', lines: 3, total: 13.5 })
    expect(res.body.payment).to.include({ paymentStatus: 'PENDING', purpose: 'batch', amount: 13.5 })
    const tid = res.body.payment.transactionId
    expect(res.body.batch.paymentTransactionId).to.equal(tid)
    expect(await count('orders')).to.equal(0)
    expect(await count('wallet_entries')).to.equal(0)
    expect((await c.get(`/api/bulk/${res.body.batch.id}/status`)).body.batch).to.include({ status: 'AWAITING_PAYMENT' })

    // The batch page's "I Have Paid" asks the payment's status: the agent may read their own.
    expect((await c.get(`/api/payment/status/${tid}`)).body).to.include({ paymentStatus: 'PENDING', purpose: 'batch' })
    expect((await approve(tid)).status).to.equal(200)
    expect((await c.get(`/api/payment/status/${tid}`)).body).to.include({ paymentStatus: 'SUCCESS' })
    const settle = () => app().services.payments.settle(tid, { status: 'SUCCESS', message: 'reported again', amountPesewas: 1350, currency: 'GHS' })
    const outs = await Promise.all(Array.from({ length: 5 }, settle))
    expect(outs.filter((o) => o.settled)).to.have.length(0)

    const view = await c.get(`/api/bulk/${res.body.batch.id}`)
    expect(view.body.batch).to.include({ status: 'PAID' })
    expect(view.body.lines.map((l: any) => [l.recipientNumber, l.paymentStatus, l.deliveryStatus])).to.deep.equal([
      ['0241000001', 'SUCCESS', 'QUEUED'],
      ['0241000002', 'SUCCESS', 'QUEUED'],
      ['0241000003', 'SUCCESS', 'QUEUED']
    ])
    expect(await count('orders WHERE batch_id = :b', { b: res.body.batch.id })).to.equal(3)
    expect(await count(`payments WHERE purpose = 'data' AND status = 'SUCCESS'`)).to.equal(3)
    // The money went through the wallet: in as the payment, out as the batch's one debit.
    const entries = await sql<{ type: string; amount_pesewas: number }>('SELECT type, amount_pesewas FROM wallet_entries WHERE agent_id = :a ORDER BY id', {
      a: ag.id
    })
    expect(entries.map((e) => [e.type, Number(e.amount_pesewas)])).to.deep.equal([
      ['TOPUP', 1350],
      ['ORDER', -1350]
    ])
    expect(await count(`audit_logs WHERE action = 'BULK_ORDER_PAID'`)).to.equal(1)
    // Queued for the delivery pump, with no job each (ADR 0063).
    expect(await count(`orders WHERE batch_id = :b AND delivery_status = 'QUEUED'`, { b: res.body.batch.id })).to.equal(3)
    expect(
      await count(`graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'delivery.send'`)
    ).to.equal(0)
    await app().services.queue.drain()
    expect(await count(`orders WHERE batch_id = :b AND delivery_status = 'DELIVERED'`, { b: res.body.batch.id })).to.equal(3)
  })

  it('settled five times at once, concurrently, from pending: the lines are written once', async () => {
    const { c } = await agent()
    const res = await c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(res.status, res.text).to.equal(201)
    const tid = res.body.payment.transactionId
    const outs = await Promise.all(
      Array.from({ length: 5 }, () => app().services.payments.settle(tid, { status: 'SUCCESS', message: 'ok', amountPesewas: 1350, currency: 'GHS' }))
    )
    expect(outs.filter((o) => o.settled)).to.have.length(1)
    expect(await count('orders')).to.equal(3)
    expect(await count(`wallet_entries WHERE type = 'ORDER'`)).to.equal(1)
    expect(await count('commissions')).to.equal(3)
  })

  it('a declined payment cancels the batch with nothing ordered; an expired one too; bad input writes nothing', async () => {
    const { c } = await agent()
    const bad = await c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '12', payerNetwork: 'MTN' })
    expect(bad.status).to.be.within(400, 499)
    expect(bad.body.error).to.be.a('string').and.not.equal('')
    expect(await count('order_batches')).to.equal(0)
    expect((await c.post('/api/bulk', { text: lines, pay: 'cash' })).status).to.equal(400)

    const res = await c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect((await decline(res.body.payment.transactionId)).status).to.equal(200)
    expect((await c.get(`/api/bulk/${res.body.batch.id}/status`)).body.batch).to.include({ status: 'CANCELLED' })
    const other = await c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '0241234567', payerNetwork: 'MTN' })
    await app().services.payments.settle(other.body.payment.transactionId, { status: 'EXPIRED', message: 'no answer' })
    expect((await c.get(`/api/bulk/${other.body.batch.id}/status`)).body.batch).to.include({ status: 'CANCELLED' })
    expect(await count('orders')).to.equal(0)
    expect(await count('wallet_entries')).to.equal(0)
  })
})
