import { expect } from 'chai'
import { createAfaRegistration, createAgent, createOrder, createUser } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'
import { sql, loggedIn } from '../helpers/backoffice-orders.ts'

describe('back office A: admin endpoints refuse non-admins', () => {
  beforeEach(resetDb)

  const calls: Array<[string, string]> = [
    ['GET', '/api/admin/stats'],
    ['GET', '/api/admin/analytics?range=7d'],
    ['PATCH', '/api/orders/1/delivered'],
    ['POST', '/api/orders/export'],
    ['GET', '/api/afa'],
    ['PATCH', '/api/afa/1/completed'],
    ['POST', '/api/afa/export']
  ]

  it('answers visitors 401 and signed-in customers and agents 403, changing nothing', async () => {
    const order = await createOrder({ paymentStatus: 'SUCCESS' })
    const afa = await createAfaRegistration()
    const { user: agentUser, password } = await createAgent()
    const agent = await loggedIn({ email: agentUser.email, password })
    const customer = await loggedIn(await createUser())
    const visitor = new Client()
    for (const [method, path] of calls) {
      const v = await visitor.request(method, path.replace('/1/', `/${path.includes('afa') ? afa.id : order.id}/`), method === 'GET' ? undefined : {})
      expect(v.status, `visitor ${method} ${path}`).to.be.oneOf([401, 403])
      for (const [who, c] of [
        ['agent', agent],
        ['customer', customer]
      ] as const) {
        const r = await c.request(method, path.replace('/1/', `/${path.includes('afa') ? afa.id : order.id}/`), method === 'GET' ? undefined : {})
        expect(r.status, `${who} ${method} ${path}`).to.equal(403)
        expect(r.text).not.to.include('recipientNumber')
        expect(r.text).not.to.include('ghCard')
      }
    }
    const [o] = await sql('SELECT delivered, exported FROM orders_view WHERE id = :id', { id: order.id })
    expect(o).to.deep.equal({ delivered: false, exported: false })
    const [a] = await sql('SELECT completed FROM afa_registrations WHERE id = :id', { id: afa.id })
    expect(a.completed).to.equal(false)
  })

  it('GET /api/orders gives visitors 401 and agents only their own orders, never the admin list', async () => {
    const direct = await createOrder({ recipientNumber: '0200000001' })
    const { user, agent, password } = await createAgent()
    const own = await createOrder({ userId: user.id, agentId: agent.id, recipientNumber: '0200000002' })
    const visitor = await new Client().get('/api/orders?page=1&limit=20')
    expect(visitor.status).to.equal(401)
    const c = await loggedIn({ email: user.email, password })
    const res = await c.get('/api/orders?page=1&limit=20&includeExported=true')
    expect(res.status).to.equal(200)
    const list = Array.isArray(res.body) ? res.body : res.body.orders
    const ids = list.map((o: { id: number }) => o.id)
    expect(ids).to.include(own.id)
    expect(ids).not.to.include(direct.id)
  })
})
