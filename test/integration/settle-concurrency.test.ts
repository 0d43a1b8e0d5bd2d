import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// ADR 0024: what keeps settlements from queueing behind one another stays exact.
const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number

async function placeOrders(n: number) {
  const packageId = await mtn1gb()
  const tids: string[] = []
  for (let i = 0; i < n; i++) {
    const placed = await new Client().post('/api/orders', {
      packageId,
      recipientNumber: `02411${String(10000 + i)}`,
      payerPhone: `02422${String(10000 + i)}`,
      payerNetwork: 'MTN'
    })
    expect(placed.status, JSON.stringify(placed.body)).to.equal(201)
    tids.push(placed.body.payment.transactionId)
  }
  return tids
}

const approve = async (tid: string) => expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)

describe('settlements at the same time', () => {
  beforeEach(resetDb)

  it('spread the running totals over slots, and every total still equals its base table and the reports', async () => {
    await app().services.settings.update({ commissionEnabled: true, commissionType: 'PERCENTAGE', commissionPercentage: 10 }, {})
    const tids = await placeOrders(20)
    await Promise.all(tids.map(approve))

    const [orders] = await q(`SELECT count(*)::int AS n, sum(amount_pesewas)::bigint AS revenue FROM orders WHERE payment_status = 'SUCCESS'`)
    expect(orders.n).to.equal(20)
    // Concurrent settlements wrote more than one row of today's MTN total (one row before ADR 0024).
    const [daily] = await q(`SELECT count(*)::int AS rows, sum(n)::int AS n, sum(revenue)::bigint AS revenue FROM order_revenue_daily WHERE network = 'MTN'`)
    expect(daily.rows).to.be.greaterThan(1)
    expect(daily.n).to.equal(20)
    expect(Number(daily.revenue)).to.equal(Number(orders.revenue))
    const [byAgent] = await q(`SELECT sum(n)::int AS n, sum(revenue)::bigint AS revenue FROM order_revenue_by_agent WHERE agent_id = 0 AND network = 'MTN'`)
    expect(byAgent.n).to.equal(20)
    expect(Number(byAgent.revenue)).to.equal(Number(orders.revenue))

    const [base] = await q(`SELECT count(*)::int AS n, sum(commission_amount_pesewas)::bigint AS c FROM commissions`)
    expect(base.n).to.equal(20)
    const [rolled] = await q(`SELECT count(*)::int AS rows, sum(n)::int AS n, sum(commission)::bigint AS c FROM commission_daily`)
    expect(rolled.rows).to.be.greaterThan(1)
    expect(rolled.n).to.equal(20)
    expect(Number(rolled.c)).to.equal(Number(base.c))

    // The reports read the running totals: the same figures.
    const admin = await adminClient()
    const summary = await admin.get('/api/commission-analytics/summary')
    expect(summary.status).to.equal(200)
    expect(summary.body.combined.totalCount).to.equal(20)
    expect(Math.round(summary.body.combined.totalAmount * 100)).to.equal(Number(base.c))

    // Archiving all of them moves the totals between the archived and current rows, still exact.
    expect((await admin.post('/api/commission-analytics/archive-all', { notes: 'month end' })).status).to.equal(200)
    const after = (await admin.get('/api/commission-analytics/summary')).body
    expect(after.current.totalCount).to.equal(0)
    expect(after.archived.totalCount).to.equal(20)
    expect(Math.round(after.archived.totalAmount * 100)).to.equal(Number(base.c))
  })

  it('a settlement uses the settings as saved now, even when the save came from another instance (no notice here)', async () => {
    await app().services.settings.update({ commissionEnabled: true, commissionType: 'PERCENTAGE', commissionPercentage: 10 }, {})
    const [first, second] = await placeOrders(2)
    await approve(first!)
    // Another instance's save: the row changes, and this instance's cached copy is not told.
    await app().services.settings.get()
    await q(`UPDATE settings SET data = jsonb_set(data, '{commissionPercentage}', '25') WHERE id = 1 RETURNING id`)
    await approve(second!)
    const rows = await q(`SELECT c.commission_amount_pesewas AS c, c.original_amount_pesewas AS a FROM commissions c ORDER BY c.id`)
    expect(rows.map((r) => Math.round((Number(r.c) * 100) / Number(r.a)))).to.deep.equal([10, 25])
  })
})
