import { expect } from 'chai'
import { createAgent, createUser } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'
import { sql, fixture } from '../helpers/commission-fixture.ts'

describe('commission reports: access', () => {
  beforeEach(resetDb)

  it('refuses visitors (401), agents and customers (403) on every commission endpoint and changes nothing', async () => {
    const { c } = await fixture()
    const { user, password } = await createAgent()
    const agent = new Client()
    await agent.login(user.email, password)
    const cust = await createUser()
    const customer = new Client()
    await customer.login(cust.email, cust.password)
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/commissions/summary'],
      ['GET', '/api/commissions?page=1&limit=20'],
      ['POST', '/api/commission-analytics/archive', { commissionIds: [c[0]!.id], notes: 'x' }],
      ['POST', '/api/commission-analytics/archive-all', { notes: 'x' }],
      ['GET', '/api/commission-analytics/summary'],
      ['GET', '/api/commission-analytics/analytics?groupBy=day'],
      ['GET', '/api/commission-analytics/agent-leaderboard?limit=10'],
      ['GET', '/api/commission-analytics/network-analytics'],
      ['GET', '/api/commission-analytics/archived?page=1&limit=20'],
      ['GET', '/api/commission-analytics/export/csv'],
      ['GET', '/api/commission-analytics/export/current-csv'],
      ['GET', '/api/commission-analytics/export/analytics-csv?groupBy=network'],
      ['GET', '/api/commission-analytics/export/leaderboard-csv']
    ]
    for (const [method, path, body] of calls) {
      expect((await new Client().request(method, path, body)).status, `visitor ${path}`).to.equal(401)
      expect((await agent.request(method, path, body)).status, `agent ${path}`).to.equal(403)
      expect((await customer.request(method, path, body)).status, `customer ${path}`).to.equal(403)
    }
    const [{ n }] = await sql<{ n: string }>('SELECT count(*) AS n FROM commissions WHERE archived')
    expect(Number(n)).to.equal(0)
  })
})
