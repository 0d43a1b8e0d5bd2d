import { expect } from 'chai'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { q, mtn1gb, drain, buyAndPay, orderOf, audits } from '../helpers/delivery-steps.ts'

// With the built-in simulator vendor (no vendor keys in the test app, no delay).

describe('delivery (simulator vendor)', () => {
  beforeEach(resetDb)

  it('settlement queues the delivery in its transaction; the worker delivers; lookup, agent and admin views say so', async () => {
    const { id } = await buyAndPay()
    let o = await orderOf(id)
    expect(o.delivery_status).to.equal('QUEUED')
    // The QUEUED order is its own queue row (ADR 0056): no job is added for it.
    const jobs = await q<{ n: string }>(`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'delivery.send'`)
    expect(Number(jobs[0]!.n)).to.equal(0)
    await drain()
    o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'DELIVERED', delivered: true, delivery_vendor: 'simulator', delivery_attempts: 1 })
    expect(o.delivery_reference).to.match(/^SIM-/)
    expect(o.delivered_at).to.be.instanceOf(Date)

    const lookup = await new Client().get('/api/orders?phoneNumber=0201112222')
    expect(lookup.body.orders?.[0] ?? lookup.body[0]).to.include({
      deliveryStatus: 'DELIVERED',
      deliveryReference: o.delivery_reference,
      deliveryAttempts: 1,
      deliveryError: null,
      delivered: true
    })

    const admin = await adminClient()
    const list = await admin.get('/api/orders?deliveryStatus=DELIVERED')
    expect(list.body.orders.map((r: any) => r.id)).to.deep.equal([id])
    expect(list.body.orders[0]).to.include({ deliveryStatus: 'DELIVERED', deliveryReference: o.delivery_reference, deliveryAttempts: 1 })
    expect((await admin.get('/api/orders?deliveryStatus=FAILED')).body.orders).to.have.length(0)
    expect((await admin.get('/api/orders?deliveryStatus=bogus')).status).to.equal(400)

    expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    // The 'delivered' SMS is written and dispatched (log provider) with its message id.
    const sms = await q<any>(`SELECT * FROM sms_outbox ORDER BY id`)
    expect(sms.map((m) => m.status)).to.deep.equal(['SENT', 'SENT'])
    expect(sms[1].message).to.equal('Your 1.0GB MTN data to 0201112222 has been delivered.')
    expect(sms[1].provider).to.equal('log')
    expect(sms[1].provider_message_id).to.match(/^log-/)

    // A job run again changes nothing (idempotent handler).
    await app().services.delivery.runSend(id)
    expect((await orderOf(id)).delivery_attempts).to.equal(1)
  })

  it('agents see delivery on their orders list and dashboard; the delivered SMS goes to the agent; approving an agent sends the approved SMS', async () => {
    const a = await createAgent()
    const c = new Client()
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    const placed = await c.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0209998888', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(placed.status).to.equal(201)
    await new Client().post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)
    await drain()
    const list = await c.get('/api/orders')
    expect(list.body.orders[0]).to.include({ deliveryStatus: 'DELIVERED', displayStatus: 'DELIVERED', deliveryAttempts: 1, deliveryError: null })
    expect(list.body.orders[0].deliveryReference).to.match(/^SIM-/)
    const sms = await q<any>(`SELECT to_phone FROM sms_outbox WHERE message LIKE '%has been delivered%'`)
    expect(sms.map((r) => r.to_phone)).to.deep.equal([a.agent.phone])

    const pending = await createAgent({ approved: false })
    const admin = await adminClient()
    expect((await admin.patch(`/api/agents/${pending.agent.id}/approve`)).status).to.equal(200)
    const approved = await q<any>(`SELECT to_phone, message FROM sms_outbox WHERE message LIKE '%has been approved%'`)
    expect(approved).to.deep.equal([{ to_phone: pending.agent.phone, message: 'Your Data Hub agent account has been approved. You can now place orders.' }])
  })

  it('the simulator control answers bad input with 400 and shows its state', async () => {
    const c = new Client()
    expect((await c.post('/api/delivery/simulator', { mode: 'explode' })).status).to.equal(400)
    const ok = await c.post('/api/delivery/simulator', { mode: 'timeout', count: 2 })
    expect(ok.body.simulator).to.include({ mode: 'timeout', remaining: 2 })
    expect((await c.get('/api/delivery/simulator')).body.simulator).to.include({ mode: 'timeout' })
  })
})
