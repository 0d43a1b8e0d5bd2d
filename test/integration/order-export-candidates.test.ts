import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { parseCsv } from '../../server/lib/csv.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { deliveredOrders } from '../helpers/export-orders.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// ADR 0050: the export walks order_export_candidates, which triggers on orders keep, instead of every
// paid order ever exported. Each way an order enters or leaves the exportable state is driven here
// through the real flows (payment, delivery worker, Retry delivery, the export and its prune job).
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
const drain = () => app().services.queue.drain()
const candidates = async () => (await q<{ order_id: number }>('SELECT order_id FROM order_export_candidates ORDER BY order_id')).map((r) => r.order_id)
const exportedIds = (csv: string) =>
  parseCsv(csv)
    .slice(1)
    .map((r) => Number(r[0]))

/** A visitor buys 1GB MTN and approves on the simulator phone: the order is paid through the real settlement. */
async function buyAndPay(recipientNumber = '0201112222') {
  const placed = await new Client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(placed.status, placed.text).to.equal(201)
  const tid = placed.body.payment.transactionId as string
  expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
  return placed.body.order.id as number
}

describe('the export candidates follow the orders (ADR 0050)', () => {
  beforeEach(async () => {
    await resetDb()
    app().services.delivery.simulatorControl({ mode: 'deliver' })
  })

  it('manual mode: an order becomes a candidate when its payment settles, leaves when exported, and the next export finds nothing', async () => {
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
    const unpaid = await new Client().post('/api/orders', {
      packageId: await mtn1gb(),
      recipientNumber: '0201113333',
      payerPhone: '0241234567',
      payerNetwork: 'MTN'
    })
    expect(unpaid.status).to.equal(201)
    const id = await buyAndPay()
    expect(await candidates()).to.deep.equal([id])
    const admin = await adminClient()
    const res = await admin.post('/api/orders/export')
    expect(res.status, res.text).to.equal(200)
    expect(exportedIds(res.text)).to.deep.equal([id])
    // Taken out by the job the export queued; until it runs, the exported order is skipped.
    expect(await candidates()).to.deep.equal([id])
    expect((await admin.post('/api/orders/export')).status).to.equal(404)
    await drain()
    expect(await candidates()).to.deep.equal([])
    expect((await admin.post('/api/orders/export')).status).to.equal(404)
  })

  it('an order the vendor failed for good becomes a candidate and is exported', async () => {
    await app().services.settings.update({ deliveryRetryLimit: 1 }, {})
    const delivered = await buyAndPay('0201114444')
    await drain()
    app().services.delivery.simulatorControl({ mode: 'fail', count: 1 })
    const failed = await buyAndPay()
    await drain()
    expect((await q<{ delivery_status: string }>('SELECT delivery_status FROM orders WHERE id = :id', { id: failed }))[0]!.delivery_status).to.equal('FAILED')
    expect(delivered).to.not.equal(failed)
    expect(await candidates()).to.deep.equal([failed])
    const res = await (await adminClient()).post('/api/orders/export')
    expect(res.status, res.text).to.equal(200)
    expect(exportedIds(res.text)).to.deep.equal([failed])
  })

  it('Retry delivery takes a failed order out of the candidates; delivered, it is never exported', async () => {
    await app().services.settings.update({ deliveryRetryLimit: 1 }, {})
    app().services.delivery.simulatorControl({ mode: 'fail', count: 1 })
    const id = await buyAndPay()
    await drain()
    expect(await candidates()).to.deep.equal([id])
    const admin = await adminClient()
    expect((await admin.post(`/api/orders/${id}/retry-delivery`)).status).to.equal(200)
    expect(await candidates()).to.deep.equal([])
    await drain()
    expect((await q<{ delivery_status: string }>('SELECT delivery_status FROM orders WHERE id = :id', { id }))[0]!.delivery_status).to.equal('DELIVERED')
    expect(await candidates()).to.deep.equal([])
    expect((await admin.post('/api/orders/export')).status).to.equal(404)
  })

  it('a short export among many delivered orders (each candidate looked up by key): its rows in id order, with their agents', async () => {
    // 400 delivered orders, past the triggers (none is a candidate) and counted by ANALYZE: three
    // candidates are under 1/8 of the table, so the export looks them up instead of walking it.
    await deliveredOrders(400)
    const { agent } = await createAgent({ name: 'Ama Mensah' })
    const first = await createOrder({ paymentStatus: 'SUCCESS' })
    const agents = await createOrder({ paymentStatus: 'SUCCESS', agentId: agent.id, deliveryStatus: 'FAILED' })
    await createOrder({ paymentStatus: 'PENDING' })
    const last = await createOrder({ paymentStatus: 'SUCCESS', network: 'TELECEL' })
    await q('ANALYZE orders')
    expect(await candidates()).to.deep.equal([first.id, agents.id, last.id])
    const res = await (await adminClient()).post('/api/orders/export', undefined, { 'Accept-Encoding': 'identity' })
    expect(res.status, res.text).to.equal(200)
    const rows = parseCsv(res.text)
    expect(rows.slice(1).map((r) => [Number(r[0]), r[6], r[7]])).to.deep.equal([
      [first.id, 'Direct Customer', ''],
      [agents.id, 'Agent', 'Ama Mensah'],
      [last.id, 'Direct Customer', '']
    ])
    expect(rows[3]![2]).to.equal('Telecel')
    await drain()
    expect(await candidates()).to.deep.equal([])
  })
})
