import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { parseCsv } from '../../server/lib/csv.ts'
import { createOrder } from '../helpers/factories.ts'
import { deliveredOrders } from '../helpers/export-orders.ts'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// ADR 0054: a short export leaves out its probe of order_exports per candidate while no earlier
// export's prune is pending (order_export_prunes); other writers of order_exports mark '-infinity' by
// a trigger, and a clash on order_exports' key is retried once with the probe.
const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const drain = () => app().services.queue.drain()
const marks = async () => (await q<{ stamp: string }>(`SELECT stamp::text FROM order_export_prunes ORDER BY stamp`)).map((r) => r.stamp)
const candidates = async () => (await q<{ order_id: number }>('SELECT order_id FROM order_export_candidates ORDER BY order_id')).map((r) => r.order_id)
const paid = async () => (await createOrder({ paymentStatus: 'SUCCESS' })).id as number

async function exportIds(): Promise<number[]> {
  const res = await (await adminClient()).post('/api/orders/export', undefined, { 'Accept-Encoding': 'identity' })
  expect(res.status, res.text).to.equal(200)
  return parseCsv(res.text)
    .slice(1)
    .map((r) => Number(r[0]))
}

/** An export row written past the triggers: the broken invariant no pending prune covers. */
async function exportedBehindTheTriggers(orderId: number) {
  await app().db.sequelize.transaction(async (t) => {
    await app().db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction: t })
    await app().db.sequelize.query('INSERT INTO order_exports (order_id, exported_at) VALUES (:orderId, now())', { replacements: { orderId }, transaction: t })
  })
}

describe('the export probes order_exports only while a prune is pending (ADR 0054)', () => {
  beforeEach(async () => {
    await resetDb()
    // Delivered orders around the candidates, counted by ANALYZE: the export takes the short walk.
    await deliveredOrders(8000)
    await q('ANALYZE orders')
  })

  it('with the first export’s prune pending, a second export does not take its orders again', async () => {
    const first = [await paid(), await paid()]
    expect(await exportIds()).to.deep.equal(first)
    const [pending] = await marks()
    expect(pending).to.be.a('string')
    const next = await paid()
    expect(await candidates()).to.deep.equal([...first, next])
    expect(await exportIds()).to.deep.equal([next])
    // No clash: the second export read the pending prune and kept its probe ('-infinity' would say otherwise).
    expect(await marks())
      .to.have.length(2)
      .and.not.include('-infinity')
    await drain()
    expect(await marks()).to.deep.equal([])
    expect(await candidates()).to.deep.equal([])
  })

  it('a candidate exported behind the triggers (no prune pending) is not exported again, and the export succeeds', async () => {
    const broken = await paid()
    await exportedBehindTheTriggers(broken)
    const fresh = await paid()
    expect(await marks()).to.deep.equal([])
    expect(await exportIds()).to.deep.equal([fresh])
    // The probe-less statement ran first and clashed: the candidates are marked for the next prune.
    expect(await marks()).to.include('-infinity')
    const again = await paid()
    expect(await exportIds()).to.deep.equal([again])
    await drain()
    expect(await marks()).to.deep.equal([])
    expect(await candidates()).to.deep.equal([])
  })

  it('any other writer of order_exports marks the candidates, and the next prune job takes every exported one out', async () => {
    const order = await createOrder({ paymentStatus: 'SUCCESS', exported: true })
    expect(await candidates()).to.deep.equal([order.id])
    expect(await marks()).to.deep.equal(['-infinity'])
    const fresh = await paid()
    expect(await exportIds()).to.deep.equal([fresh])
    await drain()
    expect(await marks()).to.deep.equal([])
    expect(await candidates()).to.deep.equal([])
  })

  it('a clash after rows went out breaks the download, exports nothing, and the next export keeps the probe', async () => {
    // 600 paid orders (their triggers make them candidates) among 8,000 delivered: the short walk, and
    // ~90 KB of CSV, past the first 64 KB write.
    await app().db.sequelize.query(
      `INSERT INTO orders (recipient_number, network, data_size_mb, amount_pesewas, payment_status, payment_transaction_id)
       SELECT '020' || lpad(g::text, 7, '0'), 'MTN', 1024, 500, 'SUCCESS', 'clash' || g FROM generate_series(1, 600) g`
    )
    await q('ANALYZE orders')
    const ids = await candidates()
    await exportedBehindTheTriggers(ids.at(-1)!)
    const broken = await (await adminClient()).post('/api/orders/export', undefined, { 'Accept-Encoding': 'identity' }).then(
      (res) => res.text,
      () => ''
    )
    expect(parseCsv(broken).length).to.be.below(600)
    expect(await q<{ n: number }>('SELECT count(*)::int AS n FROM order_exports')).to.deep.equal([{ n: 1 }])
    expect(await marks()).to.deep.equal(['-infinity'])
    expect(await exportIds()).to.deep.equal(ids.slice(0, -1))
  })
})
