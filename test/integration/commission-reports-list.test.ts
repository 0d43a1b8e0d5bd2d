import { expect } from 'chai'
import { parseCsv } from '../../server/lib/csv.ts'
import { createOrder } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { sql, fixture } from '../helpers/commission-fixture.ts'

describe('commission reports: figures', () => {
  beforeEach(resetDb)

  it('summarises and lists current commissions with date filters, newest first', async () => {
    const { ama, buyer } = await fixture()
    const admin = await adminClient()
    const s = await admin.get('/api/commissions/summary?startDate=2026-03-01&endDate=2026-03-31')
    expect(s.status).to.equal(200)
    expect(s.body).to.include({ totalCommission: 3.5, totalCount: 3, totalRevenue: 35 })
    expect(s.body.commissionByDate).to.deep.equal([
      { date: '2026-03-02', amount: 1, count: 1 },
      { date: '2026-03-08', amount: 2, count: 1 },
      { date: '2026-03-09', amount: 0.5, count: 1 }
    ])
    expect(s.body.recentCommissions.map((c: any) => c.commissionAmount)).to.deep.equal([0.5, 2, 1])
    const all = await admin.get('/api/commissions/summary')
    expect(all.body.totalCommission).to.equal(5.8)

    const p1 = await admin.get('/api/commissions?page=1&limit=2')
    expect(p1.body).to.include({ total: 5, totalPages: 3, page: 1 })
    expect(p1.body.commissions.map((c: any) => c.originalAmount)).to.deep.equal([15, 8])
    const direct = p1.body.commissions[1]
    expect(direct.order.user).to.deep.include({ id: buyer.id, agent: null })
    const p3 = await admin.get('/api/commissions?page=3&limit=2')
    const first = p3.body.commissions[0]
    expect(first).to.include({ originalAmount: 10, commissionAmount: 1, network: 'MTN', archived: false, agentName: 'Ama Sales' })
    expect(first.order.user.agent).to.deep.equal({ id: ama.agent.id, name: 'Ama Sales', phone: ama.agent.phone })
    const april = await admin.get('/api/commissions?startDate=2026-04-01&endDate=2026-04-01')
    expect(april.body.total).to.equal(2)
    expect((await admin.get('/api/commissions?startDate=2026-04-02&endDate=2026-04-01')).status).to.equal(400)
  })
})

describe('commission reports: running totals', () => {
  beforeEach(resetDb)

  it('the per-day and per-agent running totals equal the base tables after inserts, archiving, edits and deletes', async () => {
    const { ids, ama, kofi } = await fixture()
    const admin = await adminClient()
    await admin.post('/api/commission-analytics/archive', { commissionIds: [ids[1], ids[4]] })
    const orderOf = async (cid: number) => (await sql<{ order_id: number }>('SELECT order_id FROM commissions WHERE id = :cid', { cid }))[0]!.order_id
    // A refund-like change, a moved order, a deleted order (its commission goes with it), an agent reassigned.
    await sql(`UPDATE orders SET payment_status = 'FAILED' WHERE id = :id RETURNING id`, { id: await orderOf(ids[2]!) })
    await sql(`UPDATE orders SET amount_pesewas = amount_pesewas + 250, created_at = '2026-02-27T10:00:00Z' WHERE id = :id RETURNING id`, {
      id: await orderOf(ids[0]!)
    })
    await sql('DELETE FROM orders WHERE id = :id RETURNING id', { id: await orderOf(ids[3]!) })
    await sql('UPDATE commissions SET agent_id = :a, network = :n WHERE id = :id RETURNING id', { a: kofi.agent.id, n: 'AIRTELTIGO', id: ids[0] })
    await createOrder({ agentId: ama.agent.id, network: 'TELECEL', amountPesewas: 1234, paymentStatus: 'SUCCESS' })

    // Bare dates (or none) read the running totals; odd timestamps force the base tables.
    const exact = 'startDate=2000-01-01T00:00:00.001Z&endDate=2100-01-01T00:00:00.001Z'
    const same = async (path: string, lastMonthOnly = false) => {
      const a = await admin.get(`${path}${path.includes('?') ? '&' : '?'}startDate=2000-01-01&endDate=2099-12-31`)
      const b = await admin.get(`${path}${path.includes('?') ? '&' : '?'}${exact}`)
      const c = await admin.get(path)
      expect(a.status, path).to.equal(200)
      expect(a.body, path).to.deep.equal(b.body)
      // Without dates the summary's by-date list covers the last 30 days only; its totals are all-time.
      if (lastMonthOnly) expect({ ...c.body, commissionByDate: [] }, path).to.deep.equal({ ...b.body, commissionByDate: [] })
      else expect(c.body, path).to.deep.equal(b.body)
      return b.body
    }
    for (const groupBy of ['day', 'week', 'month', 'agent', 'network']) {
      for (const scope of ['all', 'current', 'archived']) await same(`/api/commission-analytics/analytics?groupBy=${groupBy}&scope=${scope}`)
    }
    const board = await same('/api/commission-analytics/agent-leaderboard?limit=10')
    await same('/api/commission-analytics/agent-leaderboard?limit=10&network=TELECEL')
    await same('/api/commission-analytics/network-analytics')
    const summary = await same('/api/commissions/summary', true)
    expect((await admin.get('/api/commissions')).body.total).to.equal(summary.totalCount)

    const [base] = await sql(
      `SELECT sum(commission_amount_pesewas) FILTER (WHERE NOT archived) AS cur, sum(commission_amount_pesewas) FILTER (WHERE archived) AS arc, count(*) AS n FROM commissions`
    )
    const s = (await admin.get('/api/commission-analytics/summary')).body
    expect([s.current.totalAmount, s.archived.totalAmount, s.combined.totalCount]).to.deep.equal([
      Number(base.cur) / 100,
      Number(base.arc) / 100,
      Number(base.n)
    ])
    for (const e of board.leaderboard) {
      const [{ r }] = await sql(`SELECT sum(amount_pesewas) AS r FROM orders WHERE agent_id = :a AND payment_status = 'SUCCESS'`, { a: e.agentId })
      expect(e.totalRevenue).to.equal(Number(r) / 100)
    }
    expect(board.leaderboard.map((e: any) => e.agentName)).to.deep.equal(['Ama Sales', 'Kofi Data'])
  })
})

describe('commission reports: archive', () => {
  beforeEach(resetDb)

  const summary = async (admin: Client) => (await admin.get('/api/commission-analytics/summary')).body

  it('archives the selected commissions once: a repeat changes nothing, and current + archived = total throughout', async () => {
    const { ids } = await fixture()
    const admin = await adminClient()
    const before = await summary(admin)
    expect(before).to.deep.include({
      current: { totalAmount: 5.8, totalCount: 5 },
      archived: { totalAmount: 0, totalCount: 0 },
      combined: { totalAmount: 5.8, totalCount: 5 }
    })

    const first = await admin.post('/api/commission-analytics/archive', { commissionIds: [ids[0], ids[1]], notes: 'March payout' })
    expect(first.status).to.equal(200)
    expect(first.body.archivedCount).to.equal(2)
    const rowsAfterFirst = await sql('SELECT id, archived, archived_at, archive_notes FROM commissions ORDER BY id')
    const again = await admin.post('/api/commission-analytics/archive', { commissionIds: [ids[0], ids[1]], notes: 'Other note' })
    expect(again.body.archivedCount).to.equal(0)
    expect(await sql('SELECT id, archived, archived_at, archive_notes FROM commissions ORDER BY id')).to.deep.equal(rowsAfterFirst)

    const after = await summary(admin)
    expect(after).to.deep.include({
      current: { totalAmount: 2.8, totalCount: 3 },
      archived: { totalAmount: 3, totalCount: 2 },
      combined: { totalAmount: 5.8, totalCount: 5 }
    })
    expect(after.current.totalAmount + after.archived.totalAmount).to.be.closeTo(after.combined.totalAmount, 1e-9)

    const archived = await admin.get('/api/commission-analytics/archived?page=1&limit=20')
    expect(archived.body).to.include({ total: 2, page: 1, totalPages: 1 })
    expect(archived.body.commissions.map((c: any) => [c.id, c.archiveNotes, c.agentName])).to.have.deep.members([
      [ids[0], 'March payout', 'Ama Sales'],
      [ids[1], 'March payout', 'Ama Sales']
    ])
    expect(archived.body.commissions[0].archivedAt).to.be.a('string')
    const current = await admin.get('/api/commissions')
    expect(current.body.total).to.equal(3)
    expect(current.body.commissions.map((c: any) => c.id)).not.to.include.members([ids[0], ids[1]])
    // The grouped analytics still count archived commissions in the totals.
    expect((await admin.get('/api/commission-analytics/analytics?groupBy=month')).body.totalStats.totalCommission).to.equal(5.8)
    expect((await admin.get('/api/commission-analytics/analytics?groupBy=month&scope=current')).body.totalStats.totalCommission).to.equal(2.8)
  })

  it('archive-all moves each commission once, even when two requests race, and a repeat moves none', async () => {
    await fixture()
    const admin = await adminClient()
    await admin.post('/api/commission-analytics/archive', { commissionIds: [(await sql('SELECT min(id) AS id FROM commissions'))[0].id] })
    const [a, b] = await Promise.all([
      admin.post('/api/commission-analytics/archive-all', { notes: 'Year end' }),
      admin.post('/api/commission-analytics/archive-all', { notes: 'Year end' })
    ])
    expect(a.status).to.equal(200)
    expect(b.status).to.equal(200)
    expect(a.body.archivedCount + b.body.archivedCount).to.equal(4)
    const snapshot = await sql('SELECT id, archived, archived_at, archive_notes FROM commissions ORDER BY id')
    const again = await admin.post('/api/commission-analytics/archive-all', { notes: 'Year end' })
    expect(again.body.archivedCount).to.equal(0)
    expect(await sql('SELECT id, archived, archived_at, archive_notes FROM commissions ORDER BY id')).to.deep.equal(snapshot)
    const s = await summary(admin)
    expect(s).to.deep.include({
      current: { totalAmount: 0, totalCount: 0 },
      archived: { totalAmount: 5.8, totalCount: 5 },
      combined: { totalAmount: 5.8, totalCount: 5 }
    })
    // The first commission kept its own (default) note; the others got 'Year end'.
    const notes = (await sql<{ archive_notes: string }>('SELECT archive_notes FROM commissions ORDER BY id')).map((r) => r.archive_notes)
    expect(notes[0]).to.match(/^Archived on \d{2}\/\d{2}\/\d{4}$/)
    expect(notes.slice(1)).to.deep.equal(['Year end', 'Year end', 'Year end', 'Year end'])
    const audit = await app().db.models.AuditLog.count({ where: { action: 'COMMISSIONS_ARCHIVED' } })
    expect(audit).to.equal(4)
  })

  it('refuses an empty or malformed selection with the spec message', async () => {
    await fixture()
    const admin = await adminClient()
    for (const body of [{}, { commissionIds: [] }, { commissionIds: ['x'] }, { commissionIds: [1, 1] }, { commissionIds: [1], notes: 'n'.repeat(501) }]) {
      const r = await admin.post('/api/commission-analytics/archive', body)
      expect(r.status, JSON.stringify(body).slice(0, 60)).to.equal(400)
    }
    expect((await admin.post('/api/commission-analytics/archive', { commissionIds: [] })).body.error).to.equal('Please select commissions to archive')
    expect((await admin.post('/api/commission-analytics/archive', { commissionIds: [999999] })).body.archivedCount).to.equal(0)
    expect((await summary(admin)).archived.totalCount).to.equal(0)
  })
})

describe('commission reports: exports', () => {
  beforeEach(resetDb)

  it('exports current and archived commissions, analytics and the leaderboard as CSV that parses back', async () => {
    const { ids, kofi } = await fixture()
    const admin = await adminClient()
    await admin.post('/api/commission-analytics/archive', { commissionIds: [ids[0], ids[3]], notes: 'Paid, "cash"' })

    const cur = await admin.get('/api/commission-analytics/export/current-csv')
    expect(cur.status).to.equal(200)
    expect(cur.headers.get('content-disposition')).to.match(/current_commissions_\d{4}-\d{2}-\d{2}\.csv/)
    const curRows = parseCsv(cur.text)
    expect(curRows[0]).to.deep.equal([
      'Commission ID',
      'Order ID',
      'Agent',
      'Agent Phone',
      'Recipient',
      'Network',
      'Order Amount (GHS)',
      'Commission (GHS)',
      'Payment Status',
      'Created At'
    ])
    expect(curRows.slice(1).map((r) => Number(r[0]))).to.deep.equal([ids[1], ids[2], ids[4]])
    expect(curRows[2]!.slice(2, 4)).to.deep.equal(['Kofi Data', `\t${kofi.agent.phone}`])
    expect(curRows[2]!.slice(5, 8)).to.deep.equal(['MTN', '5.00', '0.50'])

    const arc = parseCsv((await admin.get('/api/commission-analytics/export/csv')).text)
    expect(arc).to.have.length(3)
    expect(arc.slice(1).map((r) => [Number(r[0]), r[2], r[6], r[10]])).to.deep.equal([
      [ids[0], 'Ama Sales', '1.00', 'Paid, "cash"'],
      [ids[3], 'Direct Customer', '0.80', 'Paid, "cash"']
    ])

    const an = parseCsv((await admin.get('/api/commission-analytics/export/analytics-csv?groupBy=network')).text)
    expect(an).to.deep.equal([
      ['Group', 'Orders', 'Revenue (GHS)', 'Commission (GHS)', 'Average Commission (GHS)'],
      ['MTN', '3', '30.00', '3.00', '1.00'],
      ['TELECEL', '1', '20.00', '2.00', '2.00'],
      ['AIRTELTIGO', '1', '8.00', '0.80', '0.80'],
      ['Total', '5', '58.00', '5.80', '1.16']
    ])
    const lb = parseCsv((await admin.get('/api/commission-analytics/export/leaderboard-csv?limit=10')).text)
    expect(lb.map((r) => [r[0], r[2], r[4], r[5], r[6]])).to.deep.equal([
      ['Rank', 'Agent', 'Orders', 'Revenue (GHS)', 'Commission (GHS)'],
      ['1', 'Ama Sales', '3', '37.00', '3.00'],
      ['2', 'Kofi Data', '2', '20.00', '2.00']
    ])
    expect(await app().db.models.AuditLog.count({ where: { action: 'COMMISSIONS_EXPORTED' } })).to.equal(4)
  })

  it('exports just a header when there is nothing to export', async () => {
    const r = await (await adminClient()).get('/api/commission-analytics/export/csv')
    expect(parseCsv(r.text)).to.have.length(1)
  })
})
