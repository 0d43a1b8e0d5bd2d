import { expect } from 'chai'
import * as factories from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { createAgent, createOrder, agentClient } from '../helpers/agents-api.ts'

describe('agents API: own orders (GET /api/orders for agents)', () => {
  beforeEach(resetDb)

  it("lists only the agent's own orders, with filters, counts and includeExported", async () => {
    const a = await agentClient()
    const b = await createAgent()
    await createOrder({
      agentId: a.agent.id,
      userId: a.user.id,
      recipientNumber: '0241111111',
      network: 'MTN',
      paymentStatus: 'SUCCESS',
      delivered: true,
      amountPesewas: 450
    })
    await createOrder({ agentId: a.agent.id, userId: a.user.id, recipientNumber: '0202222222', network: 'TELECEL', paymentStatus: 'PENDING' })
    // Exported: the export takes only paid orders and they read as delivered (ADR 0021).
    await createOrder({
      agentId: a.agent.id,
      userId: a.user.id,
      recipientNumber: '0263333333',
      network: 'AIRTELTIGO',
      paymentStatus: 'SUCCESS',
      exported: true
    })
    await createOrder({ agentId: b.agent.id, userId: b.user.id, recipientNumber: '0244444444', network: 'MTN', paymentStatus: 'SUCCESS' })

    const all = await a.c.get('/api/orders?includeExported=true')
    expect(all.status).to.equal(200)
    expect(all.body.orders.map((o: any) => o.recipientNumber).sort()).to.deep.equal(['0202222222', '0241111111', '0263333333'])
    expect(all.body.pagination).to.include({ total: 3, page: 1 })
    expect(all.body.totalAll).to.equal(3)
    const delivered = all.body.orders.find((o: any) => o.recipientNumber === '0241111111')
    expect(delivered).to.include({ displayStatus: 'DELIVERED', paymentStatus: 'SUCCESS', amount: 4.5, dataSizeMB: 1024 })

    expect((await a.c.get('/api/orders')).body.pagination.total).to.equal(2)
    expect((await a.c.get('/api/orders?includeExported=true&status=DELIVERED')).body.orders).to.have.length(2)
    expect((await a.c.get('/api/orders?status=DELIVERED')).body.orders).to.have.length(1)
    expect((await a.c.get('/api/orders?includeExported=true&status=SUCCESS')).body.orders).to.have.length(0)
    expect((await a.c.get('/api/orders?includeExported=true&network=telecel')).body.orders[0].recipientNumber).to.equal('0202222222')
    const search = await a.c.get('/api/orders?includeExported=true&search=233263333333')
    expect(search.body.orders.map((o: any) => o.recipientNumber)).to.deep.equal(['0263333333'])
    expect(search.body.totalAll).to.equal(3)
    expect((await a.c.get('/api/orders?includeExported=true&search=airtel')).body.orders).to.have.length(1)
    expect((await a.c.get('/api/orders?status=BOGUS')).status).to.equal(400)
  })

  it('refuses the orders table to unapproved or unpaid agents and to non-agents', async () => {
    for (const over of [{ approved: false }, { paymentStatus: 'PENDING' }, { approved: false, paymentStatus: null }]) {
      const a = await agentClient(over)
      const res = await a.c.get('/api/orders?includeExported=true')
      expect(res.status, JSON.stringify(over)).to.equal(403)
    }
    expect((await new Client().get('/api/orders')).status).to.equal(401)
  })
})

describe('agents API: ordering is gated on approval and a SUCCESS fee', () => {
  beforeEach(resetDb)

  it("refuses an unapproved or unpaid agent's order, whatever the client sends, and creates nothing", async () => {
    const pkg: any = await factories.createPackage({ network: 'MTN', priceUserPesewas: 1000, priceAgentPesewas: 700 })
    for (const over of [
      { approved: false },
      { paymentStatus: 'PENDING' },
      { approved: true, paymentStatus: 'FAILED' },
      { approved: false, paymentStatus: null }
    ]) {
      const a = await agentClient(over)
      const forged = {
        packageId: pkg.id,
        recipientNumber: '0241234567',
        payerPhone: '0241234567',
        payerNetwork: 'MTN',
        amount: 0,
        paymentStatus: 'SUCCESS',
        approved: true,
        agentApproved: true
      }
      const res = await a.c.post('/api/orders', forged)
      expect(res.status, JSON.stringify(over)).to.equal(403)
      const two = await a.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', paymentStatus: 'SUCCESS' })
      expect(two.status, JSON.stringify(over)).to.equal(403)
      const pay = await a.c.post('/api/payment/request', { ...forged, type: 'data' })
      expect(pay.status, JSON.stringify(over)).to.equal(403)
    }
    expect(await app().db.models.Order.count()).to.equal(0)
    expect(await app().db.models.Payment.count()).to.equal(0)
  })

  it('charges an approved, paid agent the agent price, and the order shows in its own list only', async () => {
    const pkg: any = await factories.createPackage({ network: 'MTN', priceUserPesewas: 1000, priceAgentPesewas: 700 })
    const a = await agentClient()
    const b = await agentClient()
    const res = await a.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN', amount: 0.01 })
    expect(res.status).to.equal(201)
    expect(res.body.order.amount).to.equal(7)
    expect((await a.c.get('/api/orders?includeExported=true')).body.orders.map((o: any) => o.id)).to.deep.equal([res.body.id])
    expect((await b.c.get('/api/orders?includeExported=true')).body.orders).to.have.length(0)
  })
})
