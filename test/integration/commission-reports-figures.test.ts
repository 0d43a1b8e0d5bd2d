import { expect } from 'chai'
import { adminClient } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'
import { sql, fixture } from '../helpers/commission-fixture.ts'

describe('commission reports: figures', () => {
  beforeEach(resetDb)

  it('groups by day, week, month, agent and network exactly as computed by hand', async () => {
    const { ama, kofi } = await fixture()
    const admin = await adminClient()
    const get = async (groupBy: string) => {
      const r = await admin.get(`/api/commission-analytics/analytics?groupBy=${groupBy}`)
      expect(r.status, groupBy).to.equal(200)
      expect(r.body.totalStats, groupBy).to.deep.equal({
        totalCommission: 5.8,
        totalRevenue: 58,
        totalOrders: 5,
        averageCommission: 1.16,
        totalParentMargin: 0,
        parentMarginOrders: 0
      })
      return r.body.groupByData.map((g: any) => [g.key, g.label, g.totalOrders, g.totalRevenue, g.totalCommission])
    }
    expect(await get('day')).to.deep.equal([
      ['2026-03-02', '2026-03-02', 1, 10, 1],
      ['2026-03-08', '2026-03-08', 1, 20, 2],
      ['2026-03-09', '2026-03-09', 1, 5, 0.5],
      ['2026-04-01', '2026-04-01', 2, 23, 2.3]
    ])
    expect(await get('week')).to.deep.equal([
      ['2026-03-02', 'Week of 2026-03-02', 2, 30, 3],
      ['2026-03-09', 'Week of 2026-03-09', 1, 5, 0.5],
      ['2026-03-30', 'Week of 2026-03-30', 2, 23, 2.3]
    ])
    expect(await get('month')).to.deep.equal([
      ['2026-03', '2026-03', 3, 35, 3.5],
      ['2026-04', '2026-04', 2, 23, 2.3]
    ])
    expect(await get('agent')).to.deep.equal([
      [String(ama.agent.id), 'Ama Sales', 2, 30, 3],
      [String(kofi.agent.id), 'Kofi Data', 2, 20, 2],
      ['direct', 'Direct Customer', 1, 8, 0.8]
    ])
    expect(await get('network')).to.deep.equal([
      ['MTN', 'MTN', 3, 30, 3],
      ['TELECEL', 'TELECEL', 1, 20, 2],
      ['AIRTELTIGO', 'AIRTELTIGO', 1, 8, 0.8]
    ])
    const march = await admin.get('/api/commission-analytics/analytics?groupBy=network&startDate=2026-03-01&endDate=2026-03-31')
    expect(march.body.totalStats).to.deep.equal({
      totalCommission: 3.5,
      totalRevenue: 35,
      totalOrders: 3,
      averageCommission: 1.17,
      totalParentMargin: 0,
      parentMarginOrders: 0
    })
    const bad = await admin.get('/api/commission-analytics/analytics?groupBy=year')
    expect(bad.status).to.equal(400)
    expect(bad.body.error).to.equal('groupBy must be one of day, week, month, agent, network')
  })

  it('ranks agents by revenue of their SUCCESS orders, which equals the SQL sum of those orders', async () => {
    const { ama, kofi } = await fixture()
    const admin = await adminClient()
    const r = await admin.get('/api/commission-analytics/agent-leaderboard?limit=10')
    expect(r.status).to.equal(200)
    expect(r.body.totalAgents).to.equal(2)
    expect(r.body.leaderboard).to.deep.equal([
      {
        rank: 1,
        agentId: ama.agent.id,
        agentName: 'Ama Sales',
        agentPhone: ama.agent.phone,
        tier: null,
        totalRevenue: 37,
        totalOrders: 3,
        totalCommission: 3,
        parentMargin: 0
      },
      {
        rank: 2,
        agentId: kofi.agent.id,
        agentName: 'Kofi Data',
        agentPhone: kofi.agent.phone,
        tier: null,
        totalRevenue: 20,
        totalOrders: 2,
        totalCommission: 2,
        parentMargin: 0
      }
    ])
    expect(r.body.stats).to.deep.equal({
      highestRevenue: 37,
      lowestRevenue: 20,
      averageRevenue: 28.5,
      mostOrders: 3,
      totalRevenue: 57,
      totalOrders: 5,
      totalCommission: 5,
      totalParentMargin: 0,
      parentMarginOrders: 0
    })
    for (const e of r.body.leaderboard) {
      const [{ s }] = await sql<{ s: string }>(`SELECT sum(amount_pesewas) AS s FROM orders WHERE agent_id = :a AND payment_status = 'SUCCESS'`, {
        a: e.agentId
      })
      expect(e.totalRevenue).to.equal(Number(s) / 100)
    }
    const top1 = await admin.get('/api/commission-analytics/agent-leaderboard?limit=1')
    expect(top1.body.leaderboard).to.have.length(1)
    expect(top1.body.stats.totalRevenue, 'statistics cover every agent, not the page').to.equal(57)
    const telecel = await admin.get('/api/commission-analytics/agent-leaderboard?network=TELECEL')
    expect(telecel.body.leaderboard.map((e: any) => [e.agentName, e.totalRevenue])).to.deep.equal([['Ama Sales', 20]])
    expect((await admin.get('/api/commission-analytics/agent-leaderboard?limit=500')).status).to.equal(400)
  })

  it('gives every network its SUCCESS orders, revenue and commission', async () => {
    await fixture()
    const r = await (await adminClient()).get('/api/commission-analytics/network-analytics')
    expect(r.body.networks).to.deep.equal([
      { network: 'MTN', totalOrders: 4, totalRevenue: 37, totalCommission: 3 },
      { network: 'TELECEL', totalOrders: 1, totalRevenue: 20, totalCommission: 2 },
      { network: 'AIRTELTIGO', totalOrders: 1, totalRevenue: 8, totalCommission: 0.8 }
    ])
  })
})
