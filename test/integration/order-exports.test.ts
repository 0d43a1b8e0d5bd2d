import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { parseCsv } from '../../server/lib/csv.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { AtPhone, ussdAgent } from '../helpers/ussd.ts'

// ADR 0021: the CSV export records itself in order_exports and leaves the orders rows as they were.
// Every reader of the exported/delivered state must still see an exported order as exported,
// delivered (MANUAL); these tests export through HTTP and then ask each reader.
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

async function exportNow(admin: Client) {
  const res = await admin.post('/api/orders/export')
  expect(res.status, res.text).to.equal(200)
  return res
}

/** An export paused in the middle of its stream, holding its lock, until `release()`. */
async function pausedExport() {
  let release!: () => void
  const paused = new Promise<void>((r) => (release = r))
  let started!: () => void
  const streaming = new Promise<void>((r) => (started = r))
  const done = app().services.ordersAdmin.exportPending({
    start: () => {},
    write: async () => {
      started()
      await paused
    }
  })
  await streaming
  return { release, done }
}

describe('order exports (ADR 0021): every reader sees an exported order as exported and delivered', () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
    admin = await adminClient()
  })

  it('orders_view has every column of orders, plus exported and exported_at', async () => {
    const cols = (t: string) =>
      q<{ column_name: string }>('SELECT column_name FROM information_schema.columns WHERE table_name = :t', { t }).then((r) =>
        r.map((c) => c.column_name).sort()
      )
    expect(await cols('orders_view')).to.deep.equal([...(await cols('orders')), 'exported', 'exported_at'].sort())
  })

  it('the export writes order_exports rows only, not the orders rows; the admin list, filters and history read it', async () => {
    const paid = await createOrder({ paymentStatus: 'SUCCESS', network: 'TELECEL' })
    const failedDelivery = await createOrder({ paymentStatus: 'SUCCESS', deliveryStatus: 'FAILED' })
    const pending = await createOrder({ paymentStatus: 'PENDING' })
    const [before] = await q<{ updated_at: Date }>('SELECT updated_at FROM orders WHERE id = :id', { id: paid.id })
    const res = await exportNow(admin)
    expect(
      parseCsv(res.text)
        .slice(1)
        .map((r) => Number(r[0]))
    ).to.deep.equal([paid.id, failedDelivery.id])
    const rows = await q<any>('SELECT id, delivered, delivery_status, updated_at FROM orders WHERE id IN (:ids) ORDER BY id', {
      ids: [paid.id, failedDelivery.id]
    })
    expect(rows.map((r) => [r.delivered, r.delivery_status])).to.deep.equal([
      [false, 'NOT_STARTED'],
      [false, 'FAILED']
    ])
    expect(new Date(rows[0].updated_at).getTime()).to.equal(new Date(before!.updated_at).getTime())
    expect((await q<any>('SELECT order_id FROM order_exports ORDER BY order_id')).map((r) => r.order_id)).to.deep.equal([paid.id, failedDelivery.id])

    const active = await admin.get('/api/orders?limit=100')
    expect(active.body.orders.map((o: any) => o.id)).to.deep.equal([pending.id])
    const history = await admin.get('/api/orders?includeExported=true&limit=100')
    expect(history.body.pagination.total).to.equal(2)
    for (const o of history.body.orders) {
      expect(o).to.include({ exported: true, delivered: true, deliveryStatus: 'MANUAL', deliveryError: null })
      expect(o.exportedAt).to.be.a('string')
      expect(o.deliveredAt).to.equal(o.exportedAt)
    }
    const manual = await admin.get('/api/orders?includeExported=true&deliveryStatus=MANUAL&network=TELECEL')
    expect(manual.body.orders.map((o: any) => o.id)).to.deep.equal([paid.id])
    const failed = await admin.get('/api/orders?includeExported=true&deliveryStatus=FAILED')
    expect(failed.body.orders).to.have.length(0)
    const search = await admin.get(`/api/orders?includeExported=true&search=${paid.paymentTransactionId}`)
    expect(search.body.orders.map((o: any) => o.id)).to.deep.equal([paid.id])
    // Mark delivered on an exported order changes nothing (it is delivered).
    const marked = await admin.patch(`/api/orders/${paid.id}/delivered`)
    expect(marked.status).to.equal(200)
    expect(marked.body.order).to.include({ delivered: true, exported: true, deliveryStatus: 'MANUAL' })
    expect((await q<any>("SELECT count(*)::int AS n FROM audit_logs WHERE action = 'ORDER_DELIVERED'"))[0].n).to.equal(0)
  })

  it('delivery: an exported order is never retried, queued or counted as needing attention; the refund refuses it as delivered', async () => {
    const failedDelivery = await createOrder({ paymentStatus: 'SUCCESS', deliveryStatus: 'FAILED' })
    expect((await admin.get('/api/delivery/overview')).body.needsAttention).to.equal(1)
    expect((await admin.get('/api/orders?deliveryStatus=FAILED')).body.orders.map((o: any) => o.id)).to.deep.equal([failedDelivery.id])
    await exportNow(admin)
    expect((await admin.get('/api/delivery/overview')).body.needsAttention).to.equal(0)
    expect((await admin.get('/api/orders?deliveryStatus=FAILED')).body.orders).to.have.length(0)
    expect((await admin.get('/api/orders?includeExported=true&deliveryStatus=FAILED')).body.orders).to.have.length(0)
    const retry = await admin.post(`/api/orders/${failedDelivery.id}/retry-delivery`)
    expect(retry.status).to.equal(409)
    expect(retry.body.error).to.equal('This order is already delivered or on its way')
    // Not even the service's one status function moves it (a late job, a vendor callback).
    expect(await app().services.delivery.setDeliveryStatus(failedDelivery.id, 'QUEUED', {})).to.equal(null)
    const refund = await admin.post(`/api/admin/orders/${failedDelivery.id}/refund`, { reason: 'test' })
    expect(refund.status).to.equal(409)
    expect(refund.body.error).to.equal('This order has been delivered and cannot be refunded')
    const [row] = await q<any>('SELECT delivery_status, payment_status FROM orders WHERE id = :id', { id: failedDelivery.id })
    expect(row).to.deep.equal({ delivery_status: 'FAILED', payment_status: 'SUCCESS' })
  })

  it('an export waits for a delivery change in progress and a delivery change waits for an export: never both', async () => {
    const order = await createOrder({ paymentStatus: 'SUCCESS' })
    // An export holds its lock while it streams: a retry started meanwhile waits, then finds the order exported.
    const { release, done: exporting } = await pausedExport()
    let retried: unknown
    const retrying = app()
      .services.delivery.retry(order.id)
      .then(
        (r) => (retried = r),
        (e: Error) => (retried = e)
      )
    await new Promise((r) => setTimeout(r, 200))
    expect(retried).to.equal(undefined) // still waiting for the export
    release()
    expect(await exporting).to.equal(1)
    await retrying
    expect((retried as { status?: number }).status).to.equal(409)
    expect((await q<any>('SELECT delivery_status FROM orders_view WHERE id = :id', { id: order.id }))[0].delivery_status).to.equal('MANUAL')
  })

  it('a refund started while an export streams waits for it and then refuses the order as delivered: never exported and refunded', async () => {
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id')
    const buyer = new Client()
    const placed = await buyer.post('/api/orders', { packageId: pkg, recipientNumber: '0201113333', payerPhone: '0241113333', payerNetwork: 'MTN' })
    expect(placed.status, placed.text).to.equal(201)
    await app().services.simulator.approve(placed.body.payment.transactionId)
    const { release, done: exporting } = await pausedExport()
    let refunded: { status: number } | undefined
    const refunding = admin.post(`/api/admin/orders/${placed.body.id}/refund`, { reason: 'Customer asked' }).then((r) => (refunded = r))
    await new Promise((r) => setTimeout(r, 300))
    expect(refunded).to.equal(undefined) // waiting for the export's lock
    release()
    expect(await exporting).to.equal(1)
    await refunding
    expect(refunded!.status).to.equal(409)
    const [row] = await q<any>('SELECT payment_status, exported FROM orders_view WHERE id = :id', { id: placed.body.id })
    expect(row).to.deep.equal({ payment_status: 'SUCCESS', exported: true })
    expect((await q<any>('SELECT count(*)::int AS n FROM refunds'))[0].n).to.equal(0)
  })

  it('agents: My Orders hides exported orders unless asked, DELIVERED filter and dashboard count them, public lookup and USSD show them delivered', async () => {
    const a = await ussdAgent({ phone: '0241130001' })
    const mine = await createOrder({
      agentId: a.agent.id,
      userId: a.user.id,
      paymentStatus: 'SUCCESS',
      recipientNumber: '0551234567',
      paymentTransactionId: '880000004321'
    })
    const open = await createOrder({ agentId: a.agent.id, userId: a.user.id, paymentStatus: 'PENDING', recipientNumber: '0551234568' })
    await exportNow(admin)

    const agent = new Client()
    await agent.login(a.user.email, a.password)
    const list = await agent.get('/api/orders')
    expect(list.status).to.equal(200)
    expect(list.body.orders.map((o: any) => o.id)).to.deep.equal([open.id])
    const all = await agent.get('/api/orders?includeExported=true')
    const exported = all.body.orders.find((o: any) => o.id === mine.id)
    expect(exported).to.include({ exported: true, delivered: true, displayStatus: 'DELIVERED', deliveryStatus: 'MANUAL' })
    const delivered = await agent.get('/api/orders?includeExported=true&status=DELIVERED')
    expect(delivered.body.orders.map((o: any) => o.id)).to.deep.equal([mine.id])
    const success = await agent.get('/api/orders?includeExported=true&status=SUCCESS')
    expect(success.body.orders).to.have.length(0) // paid and delivered shows as DELIVERED
    const summary = await app().services.agentOrders.summary({
      user: { id: a.user.id, role: 'AGENT', agent: { id: a.agent.id, approved: true, paymentStatus: 'SUCCESS' } } as any
    })
    expect(summary).to.include({ success: 1, delivered: 1, deliveryRate: 100 })
    expect(summary.recent.find((o) => o.id === mine.id)).to.include({ delivered: true, exported: true })
    const dashboard = await agent.get('/agent/dashboard')
    expect(dashboard.status).to.equal(200)

    const lookup = await new Client().get('/api/orders?phoneNumber=0551234567')
    expect(lookup.body.orders ?? lookup.body).to.satisfy((orders: any[]) =>
      orders.some((o) => o.id === mine.id && o.delivered === true && o.deliveryStatus === 'MANUAL')
    )

    const phone = new AtPhone('+233241130001')
    await phone.dial()
    await phone.send(a.pin)
    await phone.send('3')
    const status = await phone.send('4321')
    expect(status.text).to.include('Delivery: Delivered')
  })

  it('reseller API: GET /api/v1/orders/:id reads an exported order as delivered', async () => {
    const a = await createAgent()
    const portal = new Client()
    await portal.login(a.user.email, a.password)
    const key = await portal.post('/api/reseller/keys', { name: 'Shop' })
    expect(key.status).to.equal(201)
    const o = await createOrder({ agentId: a.agent.id, userId: a.user.id, paymentStatus: 'SUCCESS' })
    await exportNow(admin)
    const api = new Client()
    api.bearer = key.body.key
    const res = await api.get(`/api/v1/orders/${o.id}`)
    expect(res.status, res.text).to.equal(200)
    expect(res.body.order).to.deep.include({ delivered: true, deliveryStatus: 'MANUAL' })
  })

  it('analytics and stats are the same before and after an export (it moves no money and no payment status)', async () => {
    for (let i = 0; i < 3; i++) await createOrder({ paymentStatus: 'SUCCESS', amountPesewas: 700 + i })
    await createOrder({ paymentStatus: 'FAILED' })
    const read = async () => ({ stats: (await admin.get('/api/admin/stats')).body, analytics: (await admin.get('/api/admin/analytics?range=7d')).body })
    app().services.adminStats.invalidate()
    const before = await read()
    await exportNow(admin)
    app().services.adminStats.invalidate()
    expect(await read()).to.deep.equal(before)
  })
})
