import { expect } from 'chai'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { sql } from '../helpers/backoffice-orders.ts'

describe('back office A: orders list', () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    admin = await adminClient()
  })

  it('filters by network, payment status and order type, paginates in SQL, and shows the agent cell', async () => {
    const { user, agent } = await createAgent({ name: 'Kofi Mensah Ventures', phone: '0551112222', approved: false })
    await createOrder({ network: 'MTN', paymentStatus: 'SUCCESS', userId: user.id, agentId: agent.id, amountPesewas: 450 })
    await createOrder({ network: 'TELECEL', paymentStatus: 'PENDING' })
    await createOrder({ network: 'AIRTELTIGO', paymentStatus: 'FAILED' })
    for (let i = 0; i < 22; i++) await createOrder({ network: 'MTN', paymentStatus: 'SUCCESS', recipientNumber: `02400000${String(i).padStart(2, '0')}` })

    const all = await admin.get('/api/orders?page=1&limit=20')
    expect(all.status).to.equal(200)
    expect(all.body.orders).to.have.length(20)
    expect(all.body.pagination).to.include({ total: 25, totalPages: 2, page: 1, hasNext: true, hasPrev: false })
    const page2 = await admin.get('/api/orders?page=2&limit=20')
    expect(page2.body.orders).to.have.length(5)

    const mtn = await admin.get('/api/orders?network=MTN&limit=100')
    expect(mtn.body.pagination.total).to.equal(23)
    const failed = await admin.get('/api/orders?paymentStatus=FAILED')
    expect(failed.body.orders.map((o: any) => o.network)).to.deep.equal(['AIRTELTIGO'])
    // Money given back is found as such (beyond the spec's four statuses).
    await createOrder({ network: 'TELECEL', paymentStatus: 'REFUNDED', recipientNumber: '0201110001' })
    await createOrder({ network: 'MTN', paymentStatus: 'REVERSED', recipientNumber: '0201110002' })
    for (const st of ['REFUNDED', 'REVERSED']) {
      const res = await admin.get(`/api/orders?paymentStatus=${st}`)
      expect(res.status, res.text).to.equal(200)
      expect(res.body.orders.map((o: any) => o.paymentStatus)).to.deep.equal([st])
    }
    await app().db.sequelize.query(`DELETE FROM orders WHERE payment_status IN ('REFUNDED','REVERSED')`)

    const agentOrders = await admin.get('/api/orders?orderType=agent')
    expect(agentOrders.body.pagination.total).to.equal(1)
    const o = agentOrders.body.orders[0]
    expect(o).to.include({ amount: 4.5, orderType: 'agent', paymentStatus: 'SUCCESS', delivered: false })
    expect(o.user.agent).to.include({ name: 'Kofi Mensah Ventures', phone: '0551112222', approved: false })
    const direct = await admin.get('/api/orders?orderType=direct&limit=100')
    expect(direct.body.pagination.total).to.equal(24)
    expect(direct.body.orders.every((x: any) => x.user === null && x.orderType === 'direct')).to.equal(true)

    const bad = await admin.get('/api/orders?network=VODAFONE')
    expect(bad.status).to.equal(400)
    expect(bad.body.error).to.be.a('string')
    expect((await admin.get('/api/orders?limit=1000')).status).to.equal(400)
  })

  it('searches recipient (either spelling), agent name and phone, transaction id, status, network and size', async () => {
    const { agent } = await createAgent({ name: 'Ama Data Shop', phone: '0277654321' })
    const a = await createOrder({ recipientNumber: '0244556677', network: 'MTN', paymentStatus: 'SUCCESS', paymentTransactionId: '900000000000001' })
    // Fixed transaction ids: a random one may hold a searched string ('512' does, now and then).
    const b = await createOrder({
      recipientNumber: '0501234567',
      network: 'TELECEL',
      paymentStatus: 'FAILED',
      agentId: agent.id,
      dataSizeMb: 512,
      paymentTransactionId: '800000000000002'
    })
    const c = await createOrder({
      recipientNumber: '0269998888',
      network: 'AIRTELTIGO',
      paymentStatus: 'PENDING',
      dataSizeMb: 3072,
      paymentTransactionId: '800000000000003'
    })
    const ids = async (q: string) => (await admin.get(`/api/orders?search=${encodeURIComponent(q)}&limit=100`)).body.orders.map((o: any) => o.id).sort()

    expect(await ids('4556677')).to.deep.equal([a.id])
    expect(await ids('233244556677')).to.deep.equal([a.id])
    expect(await ids('ama data')).to.deep.equal([b.id])
    expect(await ids('0277654')).to.deep.equal([b.id])
    expect(await ids('90000000000000')).to.deep.equal([a.id])
    expect(await ids('failed')).to.deep.equal([b.id])
    expect(await ids('telecel')).to.deep.equal([b.id])
    expect(await ids('3GB')).to.deep.equal([c.id])
    expect(await ids('512')).to.deep.equal([b.id])
    expect(await ids('100%_')).to.deep.equal([])
    const res = await admin.get('/api/orders?search=mtn&network=TELECEL')
    expect(res.body.pagination.total).to.equal(0)
  })

  it('marks a paid order delivered (once), refuses unpaid ones and bad ids', async () => {
    const paid = await createOrder({ paymentStatus: 'SUCCESS' })
    const unpaid = await createOrder({ paymentStatus: 'PENDING' })
    const res = await admin.patch(`/api/orders/${paid.id}/delivered`)
    expect(res.status).to.equal(200)
    expect(res.body.order).to.include({ id: paid.id, delivered: true })
    expect((await admin.patch(`/api/orders/${paid.id}/delivered`)).status).to.equal(200)
    const refused = await admin.patch(`/api/orders/${unpaid.id}/delivered`)
    expect(refused.status).to.equal(409)
    expect(refused.body.error).to.equal('Only paid orders can be marked delivered')
    expect((await admin.patch('/api/orders/999999/delivered')).status).to.equal(404)
    expect((await admin.patch('/api/orders/abc/delivered')).status).to.equal(400)
    const [row] = await sql('SELECT delivered FROM orders WHERE id = :id', { id: unpaid.id })
    expect(row.delivered).to.equal(false)
    // Still active (delivered by hand is not exported).
    const active = await admin.get('/api/orders')
    expect(active.body.orders.find((o: any) => o.id === paid.id).delivered).to.equal(true)
  })
})
