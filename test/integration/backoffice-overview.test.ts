import { expect } from 'chai'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { sql } from '../helpers/backoffice-orders.ts'

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
