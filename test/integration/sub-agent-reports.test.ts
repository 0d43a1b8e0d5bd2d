import { expect } from 'chai'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, type Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { agentIn, credit, seedTiers, tierIds } from '../helpers/tiers.ts'

// Commission reports and agent performance count a sub-agent's sale under the sub-agent and the
// parent's margin on it as a figure of its own, never as a commission (ADR 0041).
describe('reports: sub-agent sales and parent margins', () => {
  beforeEach(async () => {
    await resetDb()
    await seedTiers()
    await app().services.settings.update(
      { shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 20, commissionEnabled: true, commissionPercentage: 10, deliveryMode: 'automatic' },
      {}
    )
  })

  /** Every report's parent-margin and commission figures, through HTTP. */
  async function figures(admin: Client) {
    const get = async (path: string) => {
      const res = await admin.get(path)
      expect(res.status, `${path}: ${res.text}`).to.equal(200)
      return res.body
    }
    const [summary, analytics, board, cards] = await Promise.all([
      get('/api/commission-analytics/summary'),
      get('/api/commission-analytics/analytics?groupBy=agent'),
      get('/api/commission-analytics/agent-leaderboard?limit=10'),
      get('/api/commissions/summary')
    ])
    return {
      margins: [summary.parentMargins.totalAmount, analytics.totalStats.totalParentMargin, board.stats.totalParentMargin, cards.totalParentMargin],
      marginOrders: [summary.parentMargins.totalCount, analytics.totalStats.parentMarginOrders, board.stats.parentMarginOrders, cards.parentMarginOrders],
      commissions: [summary.combined.totalAmount, analytics.totalStats.totalCommission, board.stats.totalCommission, cards.totalCommission],
      rows: (board.leaderboard as Record<string, unknown>[]).map((r) => ({
        name: r.agentName,
        tier: r.tier,
        orders: r.totalOrders,
        revenue: r.totalRevenue,
        commission: r.totalCommission,
        parentMargin: r.parentMargin
      }))
    }
  }

  it('a delivered sub-agent order raises the parent-margin figure by exactly the margin and no commission total; a refund takes it back', async function () {
    this.timeout(30_000)
    const pkg = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 600, priceAgentPesewas: 500 })
    const t = await tierIds()
    const admin = await adminClient()
    const dealer = await agentIn(t.Dealer, '0241910001')
    await app().db.sequelize.query('UPDATE agents SET name = :n WHERE id = :id', { replacements: { n: 'Dealer Dede', id: dealer.agent.id } })
    const sub = await agentIn(t.Agent, '0241910002', dealer.agent.id)
    await app().db.sequelize.query('UPDATE agents SET name = :n WHERE id = :id', { replacements: { n: 'Sub Sena', id: sub.agent.id } })
    expect((await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 5.3 }] })).status).to.equal(200)
    await credit(dealer.agent.id, 10)
    await credit(sub.agent.id, 10)
    // The dealer's own sale earns a platform commission (10% of 5.00): the baseline that must not move.
    const own = await dealer.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(own.status, own.text).to.equal(201)
    const placed = await sub.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201113333', payFrom: 'wallet' })
    expect(placed.status, placed.text).to.equal(201)
    const orderId = placed.body.order.id as number

    const paid = await figures(admin)
    expect(paid.margins).to.deep.equal([0, 0, 0, 0])
    expect(paid.commissions).to.deep.equal([0.5, 0.5, 0.5, 0.5])
    // the sale is the sub-agent's, at its price, with no commission; the parent's revenue is only its own order
    expect(paid.rows).to.deep.equal([
      { name: 'Sub Sena', tier: 'Agent', orders: 1, revenue: 5.3, commission: 0, parentMargin: 0 },
      { name: 'Dealer Dede', tier: 'Dealer', orders: 1, revenue: 5, commission: 0.5, parentMargin: 0 }
    ])

    await app().services.delivery.setDeliveryStatus(orderId, 'DELIVERED', {})
    const delivered = await figures(admin)
    expect(delivered.margins).to.deep.equal([0.3, 0.3, 0.3, 0.3])
    expect(delivered.marginOrders).to.deep.equal([1, 1, 1, 1])
    expect(delivered.commissions).to.deep.equal(paid.commissions)
    expect(delivered.rows.map((r) => [r.name, r.parentMargin, r.commission])).to.deep.equal([
      ['Sub Sena', 0, 0],
      ['Dealer Dede', 0.3, 0.5]
    ])

    const tid = placed.body.order.paymentTransactionId ?? placed.body.payment.transactionId
    await app().services.payments.refund(tid, 'Never arrived')
    await app().services.queue.drain()
    const refunded = await figures(admin)
    expect(refunded.margins).to.deep.equal([0, 0, 0, 0])
    expect(refunded.marginOrders).to.deep.equal([0, 0, 0, 0])
    expect(refunded.commissions).to.deep.equal(paid.commissions)
    expect(refunded.rows.find((r) => r.name === 'Dealer Dede')!.parentMargin).to.equal(0)
  })
})
