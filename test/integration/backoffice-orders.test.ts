import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { parseCsv } from '../../server/lib/csv.ts'
import { createAfaRegistration, createAgent, createOrder, createUser } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

const sql = <T extends object = any>(q: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(q, { replacements, type: QueryTypes.SELECT }) as unknown as Promise<T[]>

async function loggedIn(user: { email: string; password: string }) {
  const c = new Client()
  const res = await c.login(user.email, user.password)
  expect(res.status).to.equal(200)
  return c
}

/** The raw bytes of a download (fetch's text() drops a BOM). */
async function rawBytes(c: Client, path: string): Promise<Buffer> {
  const res = await fetch(c.base + path, {
    method: 'POST',
    headers: { Cookie: [...c.cookies].map(([k, v]) => `${k}=${v}`).join('; '), 'x-csrf-token': c.csrf ?? '' }
  })
  return Buffer.from(await res.arrayBuffer())
}

/** Many orders at once, straight in SQL (factories are one row per call). */
async function bulkOrders(n: number, over: { status?: string; exported?: boolean; delivered?: boolean } = {}) {
  await app().db.sequelize.query(
    `WITH o AS (INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id, delivered, created_at)
       SELECT '024' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, :status, 'bulk' || g, :delivered, now() - g * interval '1 second'
       FROM generate_series(1, :n) g RETURNING id)
     INSERT INTO order_exports (order_id, exported_at) SELECT id, now() FROM o WHERE :exported`,
    { replacements: { n, status: over.status ?? 'SUCCESS', exported: over.exported ?? false, delivered: over.delivered ?? false } }
  )
}

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

describe('back office A: orders export', () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    admin = await adminClient()
  })

  it('exports the N paid, undelivered active orders as CSV, then they are in the history only', async () => {
    const { user, agent } = await createAgent({ name: 'Yaw, "The Plug" Ltd', phone: '0209876543' })
    const pending = [
      await createOrder({
        paymentStatus: 'SUCCESS',
        recipientNumber: '0241234567',
        amountPesewas: 1250,
        network: 'TELECEL',
        dataSizeMb: 2048,
        userId: user.id,
        agentId: agent.id
      }),
      await createOrder({ paymentStatus: 'SUCCESS', recipientNumber: '0501112222', amountPesewas: 500, paymentPhoneNumber: '0557778888' }),
      await createOrder({ paymentStatus: 'SUCCESS', recipientNumber: '0273334444', amountPesewas: 99 })
    ]
    const unpaid = await createOrder({ paymentStatus: 'PENDING' })
    const failed = await createOrder({ paymentStatus: 'FAILED' })
    const handDelivered = await createOrder({ paymentStatus: 'SUCCESS', delivered: true })
    const old = await createOrder({
      paymentStatus: 'SUCCESS',
      delivered: true,
      exported: true,
      exportedAt: new Date(Date.now() - 86_400_000),
      createdAt: new Date(Date.now() - 2 * 86_400_000)
    })

    const res = await admin.post('/api/orders/export')
    expect(res.status).to.equal(200)
    expect(res.headers.get('content-type')).to.match(/^text\/csv; charset=utf-8/)
    const today = new Date().toISOString().slice(0, 10)
    expect(res.headers.get('content-disposition')).to.equal(`attachment; filename="orders_export_${today}.csv"`)
    expect(res.text).to.include('\r\n')

    const rows = parseCsv(res.text)
    const [header, ...data] = rows
    expect(header).to.deep.equal([
      'Order ID',
      'Recipient Number',
      'Network',
      'Data Size',
      'Data Size (MB)',
      'Amount (GHS)',
      'Order Type',
      'Agent Name',
      'Agent Phone',
      'Payment Status',
      'Transaction ID',
      'Payment Phone',
      'Created At (UTC)',
      'Exported At (UTC)',
      'Simulated Payment'
    ])
    expect(data).to.have.length(pending.length)
    expect(data.map((r) => Number(r[0])).sort((x, y) => x - y)).to.deep.equal(pending.map((p) => p.id).sort((x, y) => x - y))
    const first = data.find((r) => Number(r[0]) === pending[0]!.id)!
    expect(first[1]).to.equal('\t0241234567') // text, leading zero kept
    expect(first.slice(2, 8)).to.deep.equal(['Telecel', '2.0GB', '2048', '12.50', 'Agent', 'Yaw, "The Plug" Ltd'])
    expect(first[8]).to.equal('\t0209876543')
    expect(data.find((r) => Number(r[0]) === pending[2]!.id)![5]).to.equal('0.99')
    expect(data.find((r) => Number(r[0]) === pending[1]!.id)!.slice(6, 8)).to.deep.equal(['Direct Customer', ''])
    expect(res.text).to.include('"Yaw, ""The Plug"" Ltd"')

    const active = await admin.get('/api/orders?limit=100')
    const activeIds = active.body.orders.map((o: any) => o.id)
    for (const p of pending) expect(activeIds).not.to.include(p.id)
    expect(activeIds).to.have.members([unpaid.id, failed.id, handDelivered.id])
    const history = await admin.get('/api/orders?includeExported=true&limit=100')
    expect(history.body.orders.map((o: any) => o.id)).to.have.members([...pending.map((p) => p.id), old.id])
    const exported = history.body.orders.filter((o: any) => o.id !== old.id)
    expect(exported.every((o: any) => o.delivered && o.exported && o.exportedAt)).to.equal(true)
    // Newest orders first in the history too.
    expect(history.body.orders.at(-1).id).to.equal(old.id)

    const again = await admin.post('/api/orders/export')
    expect(again.status).to.equal(404)
    expect(again.body.error).to.equal('No orders available for export')
  })

  it('is atomic: a failure midway (the receiver breaks after the first batch) marks nothing', async function () {
    this.timeout(120_000) // 12,000 rows: a loaded machine needs more than the default 20 s
    await bulkOrders(12_000)
    // Past 2,000 rows the list gives an estimate rather than counting every row.
    const listed = await admin.get('/api/orders?limit=20')
    expect(listed.body.orders).to.have.length(20)
    expect(listed.body.pagination.exact).to.equal(false)
    expect(listed.body.pagination.total).to.be.greaterThan(2_000)
    const few = await admin.get('/api/orders?search=0240000123')
    expect(few.body.pagination).to.include({ total: 1, exact: true })
    let batches = 0
    let failure: Error | undefined
    try {
      await app().services.ordersAdmin.exportPending({
        start: () => {},
        write: async () => {
          batches++
          if (batches === 2) throw new Error('disk full')
        }
      })
    } catch (err) {
      failure = err as Error
    }
    expect(failure?.message).to.equal('disk full')
    expect(batches).to.equal(2)
    const [counts] = await sql('SELECT count(*) FILTER (WHERE exported OR delivered)::int AS marked, count(*)::int AS total FROM orders_view')
    expect(counts).to.deep.equal({ marked: 0, total: 12_000 })
    const audit = await sql("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'ORDERS_EXPORTED'")
    expect(audit[0].n).to.equal(0)

    // And over HTTP afterwards, the whole set goes out in one file.
    const res = await admin.post('/api/orders/export')
    expect(res.status).to.equal(200)
    expect(parseCsv(res.text)).to.have.length(12_001)
  })

  it('two exports at once never hand out the same order twice', async () => {
    await bulkOrders(3000)
    const [a, b] = await Promise.all([admin.post('/api/orders/export'), admin.post('/api/orders/export')])
    const statuses = [a.status, b.status].sort()
    expect(statuses).to.deep.equal([200, 404])
    const ok = a.status === 200 ? a : b
    expect(parseCsv(ok.text)).to.have.length(3001)
  })
})

describe('back office A: overview stats and analytics', () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    app().services.adminStats.invalidate() // figures are cached per instance
    admin = await adminClient()
  })

  it('sums the range in SQL: per-day counts and revenue, rates, breakdowns', async () => {
    const day = 86_400_000
    const now = Date.now()
    await createOrder({ paymentStatus: 'SUCCESS', amountPesewas: 1000, network: 'MTN' })
    await createOrder({ paymentStatus: 'SUCCESS', amountPesewas: 500, network: 'TELECEL', createdAt: new Date(now - 2 * day) })
    await createOrder({ paymentStatus: 'FAILED', amountPesewas: 700, network: 'MTN' })
    await createOrder({ paymentStatus: 'PENDING', amountPesewas: 700, network: 'AIRTELTIGO' })
    await createOrder({ paymentStatus: 'EXPIRED', amountPesewas: 700, network: 'MTN', createdAt: new Date(now - 20 * day) })
    await createOrder({ paymentStatus: 'SUCCESS', amountPesewas: 9999, createdAt: new Date(now - 40 * day) })
    const [{ n }] = await sql("SELECT count(*)::int AS n FROM orders WHERE created_at < now() - interval '1 day'")
    expect(n, 'factory honours createdAt').to.equal(3)

    const week = await admin.get('/api/admin/analytics?range=7d')
    expect(week.status).to.equal(200)
    expect(week.body).to.include({
      range: '7d',
      totalOrders: 4,
      successCount: 2,
      failedCount: 1,
      expiredCount: 0,
      pendingCount: 1,
      totalRevenue: 15,
      averageOrderValue: 7.5,
      successRate: 50
    })
    expect(week.body.ordersByDay).to.have.length(7)
    expect(week.body.ordersByDay.at(-1)).to.deep.equal({ date: new Date().toISOString().slice(0, 10), count: 3 })
    expect(week.body.revenueByDay.at(-1).amount).to.equal(10)
    expect(week.body.ordersByDay.reduce((s: number, d: any) => s + d.count, 0)).to.equal(4)
    expect(week.body.networkBreakdown).to.deep.equal({ MTN: 2, TELECEL: 1, AIRTELTIGO: 1 })
    expect(week.body.paymentStatusBreakdown).to.deep.equal({ PENDING: 1, IN_PROGRESS: 0, SUCCESS: 2, FAILED: 1, EXPIRED: 0, REFUNDED: 0, REVERSED: 0 })

    const today = await admin.get('/api/admin/analytics?range=today')
    expect(today.body).to.include({ totalOrders: 3, totalRevenue: 10 })
    expect(today.body.ordersByDay).to.have.length(1)
    const month = await admin.get('/api/admin/analytics?range=30d')
    expect(month.body).to.include({ totalOrders: 5, expiredCount: 1 })
    expect(month.body.ordersByDay).to.have.length(30)
    expect((await admin.get('/api/admin/analytics')).body.range).to.equal('7d')
    expect((await admin.get('/api/admin/analytics?range=1y')).status).to.equal(400)

    await createAgent({ paymentStatus: 'SUCCESS' })
    await createAgent({ paymentStatus: 'PENDING', approved: false })
    await createAgent({ paymentStatus: null, approved: false })
    await createAgent({ paymentStatus: 'FAILED', approved: false })
    const stats = await admin.get('/api/admin/stats')
    expect(stats.status).to.equal(200)
    expect(stats.body).to.include({ agentCount: 4, orderCount: 6, successfulRegistrations: 1, pendingRegistrations: 2, failedRegistrations: 1 })
    expect(stats.body.userCount).to.equal(5) // the seeded admin and four agents
    expect(stats.body.agentPaymentBreakdown).to.include({ SUCCESS: 1, PENDING: 1, FAILED: 1, NONE: 1 })
    expect(stats.body.totalAgentRevenue).to.equal(0)
    expect(stats.body.agentRegistrationFee).to.be.a('number')
  })
})

describe('back office A: AFA registrations', () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    admin = await adminClient()
  })

  it('lists newest first with server pagination and search by name, card or phone', async () => {
    for (let i = 0; i < 23; i++) await createAfaRegistration({ createdAt: new Date(Date.now() - i * 60_000) })
    const abena = await createAfaRegistration({
      fullName: 'Abena Owusu',
      ghCard: 'GHA-777888999-3',
      phone: '0249990000',
      createdAt: new Date(Date.now() - 3_600_000)
    })
    const res = await admin.get('/api/afa?page=1&limit=20')
    expect(res.status).to.equal(200)
    expect(res.body.registrations).to.have.length(20)
    expect(res.body.pagination).to.include({ total: 24, totalPages: 2, page: 1, hasNext: true })
    const p2 = await admin.get('/api/afa?page=2&limit=20')
    expect(p2.body.registrations.at(-1).id).to.equal(abena.id)
    for (const q of ['abena', 'OWUSU', '777888', '233249990000', '0249990']) {
      const found = await admin.get(`/api/afa?search=${encodeURIComponent(q)}`)
      expect(
        found.body.registrations.map((r: any) => r.id),
        q
      ).to.deep.equal([abena.id])
    }
    expect((await admin.get('/api/afa?search=nobody')).body.pagination.total).to.equal(0)
    expect((await admin.get('/api/afa?page=0')).status).to.equal(400)
  })

  it('marks completed one way only, never for a payment that did not succeed', async () => {
    const paid = await createAfaRegistration()
    const failed = await createAfaRegistration({ paymentStatus: 'FAILED' })
    const res = await admin.patch(`/api/afa/${paid.id}/completed`)
    expect(res.status).to.equal(200)
    expect(res.body.registration).to.include({ id: paid.id, completed: true })
    const again = await admin.patch(`/api/afa/${paid.id}/completed`)
    expect(again.body.registration.completed).to.equal(true)
    const refused = await admin.patch(`/api/afa/${failed.id}/completed`)
    expect(refused.status).to.equal(409)
    expect((await admin.patch('/api/afa/424242/completed')).status).to.equal(404)
  })

  it('exports every registration as afa_registrations.csv', async () => {
    await createAfaRegistration({ fullName: '=HYPERLINK("x")', phone: '0201234567', amountPesewas: 1500 })
    await createAfaRegistration({ fullName: 'Kwame Nkrumah', paymentStatus: null, completed: true })
    const bytes = await rawBytes(admin, '/api/afa/export')
    expect([...bytes.subarray(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]) // UTF-8 BOM for Excel
    const res = await admin.post('/api/afa/export')
    expect(res.status).to.equal(200)
    expect(res.headers.get('content-disposition')).to.equal('attachment; filename="afa_registrations.csv"')
    const [header, ...data] = parseCsv(res.text)
    expect(header).to.deep.equal([
      'ID',
      'Full Name',
      'GH Card Number',
      'Phone Number',
      'Email',
      'Amount (GHS)',
      'Payment Status',
      'Transaction ID',
      'Completed',
      'Submitted (UTC)',
      'Completed At (UTC)',
      'Simulated Payment'
    ])
    expect(data).to.have.length(2)
    expect(data[0]![1]).to.equal('\t=HYPERLINK("x")') // formula neutralised
    expect(data[0]![3]).to.equal('\t0201234567')
    expect(data[0]![5]).to.equal('15.00')
    expect(data[1]!.slice(6, 9)).to.deep.equal(['N/A', data[1]![7], 'Yes'])
  })
})
