import { expect } from 'chai'
import { expectAdminOnly } from '../helpers/access.ts'
import { resetDb } from '../helpers/server.ts'
import { sql, fixture } from '../helpers/commission-fixture.ts'

describe('commission reports: access', () => {
  beforeEach(resetDb)

  it('refuses visitors (401), agents and customers (403) on every commission endpoint and changes nothing', async () => {
    const { c } = await fixture()
    await expectAdminOnly([
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
    ])
    const [{ n }] = await sql<{ n: string }>('SELECT count(*) AS n FROM commissions WHERE archived')
    expect(Number(n)).to.equal(0)
  })
})
