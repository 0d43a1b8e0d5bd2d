import { expect } from 'chai'
import { parseCsv } from '../../server/lib/csv.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { sql, bulkOrders } from '../helpers/backoffice-orders.ts'

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
