import { expect } from 'chai'
import { parseCsv } from '../../server/lib/csv.ts'
import { expectAdminOnly } from '../helpers/access.ts'
import { createAgent, createUser } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'

const models = () => app().db.models
const SECRETS = /password-123|admin-pass-123|passwordHash|argon2|"pin"|accessToken|refreshToken/i

async function adminId() {
  return (await models().User.findOne({ where: { email: ADMIN.email } }))!.get('id') as number
}

/** Fixture rows written straight to the table, with times and addresses we choose. */
async function seedLogs(userId: number) {
  const rows = [
    {
      timestamp: new Date('2026-03-01T08:00:00Z'),
      userId,
      action: 'LOGIN',
      resource: 'USER',
      resourceId: String(userId),
      severity: 'LOW',
      ipAddress: '41.66.1.1',
      details: { email: ADMIN.email }
    },
    {
      timestamp: new Date('2026-03-02T09:00:00Z'),
      userId,
      action: 'SETTINGS_UPDATED',
      resource: 'SETTINGS',
      resourceId: '1',
      severity: 'MEDIUM',
      ipAddress: '41.66.1.2',
      details: { changed: ['siteName'] }
    },
    {
      timestamp: new Date('2026-03-03T10:00:00Z'),
      userId: null,
      action: 'PAYMENT_FAILED',
      resource: 'PAYMENT',
      resourceId: 'tx-abcdef123456',
      severity: 'HIGH',
      ipAddress: '::ffff:10.0.0.9',
      details: { reason: 'declined' }
    },
    {
      timestamp: new Date('2026-03-03T23:59:59Z'),
      userId,
      action: 'AGENT_APPROVED',
      resource: 'AGENT',
      resourceId: '7',
      severity: 'CRITICAL',
      ipAddress: '41.66.1.1',
      details: { note: 'x'.repeat(80) }
    }
  ]
  for (const r of rows) await models().AuditLog.create(r)
  return rows
}

describe('audit logs: access', () => {
  beforeEach(resetDb)

  it('refuses visitors (401) and non-admins (403) on every audit route, and has no way to edit or delete', async () => {
    await expectAdminOnly([
      ['GET', '/api/admin/audit-logs'],
      ['GET', '/api/admin/audit-logs/actions'],
      ['POST', '/api/admin/audit-logs/export', { format: 'json' }]
    ])
    const admin = await adminClient()
    const before = await models().AuditLog.count()
    const id = (await models().AuditLog.findOne())!.get('id')
    for (const [method, path] of [
      ['PUT', `/api/admin/audit-logs/${id}`],
      ['PATCH', `/api/admin/audit-logs/${id}`],
      ['DELETE', `/api/admin/audit-logs/${id}`],
      ['DELETE', '/api/admin/audit-logs']
    ]) {
      const r = await admin.request(method!, path!, method === 'DELETE' ? undefined : { action: 'X' })
      expect(r.status, `${method} ${path}`).to.equal(405)
      expect(r.body.error).to.equal('Audit logs cannot be edited or deleted')
    }
    expect(await models().AuditLog.count()).to.equal(before)
  })
  it('the database itself refuses edits and deletes of audit rows; a deleted user only unlinks', async () => {
    const u = await createUser()
    await app().services.audit.record({ action: 'LOGIN', resource: 'USER', resourceId: u.id, userId: u.id }, { ip: '41.66.3.3' })
    const db = app().db.sequelize
    for (const q of [`UPDATE audit_logs SET action = 'NOTHING'`, `UPDATE audit_logs SET details = '{}'::jsonb`, 'DELETE FROM audit_logs']) {
      let err: unknown = null
      try {
        await db.query(q)
      } catch (e) {
        err = e
      }
      expect(String(err), q).to.match(/audit logs cannot be (edited|deleted)/)
    }
    await db.query('DELETE FROM users WHERE id = :id', { replacements: { id: u.id } })
    const rows = (await models().AuditLog.findAll({ where: { resourceId: String(u.id), action: 'LOGIN' }, raw: true })) as any[]
    expect(rows).to.have.length(1)
    expect(rows[0]).to.include({ userId: null, ipAddress: '41.66.3.3' })
  })
})

describe('audit logs: entries written where things happen', () => {
  beforeEach(resetDb)

  it('a login leaves exactly one LOGIN entry with the user and the client IP, and no secret', async () => {
    const u = await createUser({ password: 'password-123' })
    const c = new Client()
    const res = await c.request('POST', '/api/auth/login', { email: u.email, password: 'password-123' }, { 'X-Forwarded-For': '41.66.20.30' })
    expect(res.status).to.equal(200)
    const admin = await adminClient()
    const list = await admin.get(`/api/admin/audit-logs?action=LOGIN&userId=${u.id}`)
    expect(list.status).to.equal(200)
    expect(list.body.logs).to.have.length(1)
    const log = list.body.logs[0]
    expect(log).to.include({ action: 'LOGIN', resource: 'USER', resourceId: String(u.id), userId: u.id, ipAddress: '41.66.20.30' })
    expect(log.user).to.deep.equal({ email: u.email, role: 'PUBLIC' })
    expect(JSON.stringify(log)).not.to.match(SECRETS)
  })

  it('a settings change leaves exactly one SETTINGS_UPDATED entry by that admin from that IP, and no secret', async () => {
    const admin = await adminClient()
    const current = (await admin.get('/api/settings')).body
    const put = await admin.request('PUT', '/api/settings', { ...current, siteName: 'Audit Hub' }, { 'X-Forwarded-For': '41.66.7.7' })
    expect(put.status).to.equal(200)
    const list = await admin.get('/api/admin/audit-logs?action=SETTINGS_UPDATED')
    expect(list.body.logs).to.have.length(1)
    const log = list.body.logs[0]
    expect(log).to.include({ resource: 'SETTINGS', userId: await adminId(), ipAddress: '41.66.7.7' })
    expect(log.user).to.deep.equal({ email: ADMIN.email, role: 'ADMIN' })
    expect(JSON.stringify(log)).not.to.match(SECRETS)
  })

  it('agent registration (USER_CREATED), approval (AGENT_APPROVED) and logout (LOGOUT) are each recorded once with the acting user and IP', async () => {
    const visitor = new Client()
    const reg = await visitor.request(
      'POST',
      '/api/agents/register',
      { name: 'Audit Registrant', phone: '0245557777', email: 'registrant@test.local', password: 'secret-pass-9' },
      { 'X-Forwarded-For': '41.66.5.5' }
    )
    expect(reg.status, reg.text).to.be.oneOf([200, 201])
    const newUser = (await models().User.findOne({ where: { email: 'registrant@test.local' } }))!.get({ plain: true }) as any
    const admin = await adminClient()
    const created = (await admin.get(`/api/admin/audit-logs?action=USER_CREATED&resourceId=${newUser.id}`)).body.logs
    expect(created).to.have.length(1)
    expect(created[0]).to.include({ ipAddress: '41.66.5.5' })

    const { agent } = await createAgent({ approved: false })
    const ok = await admin.request('PATCH', `/api/agents/${agent.id}/approve`, {}, { 'X-Forwarded-For': '41.66.6.6' })
    expect(ok.status, ok.text).to.equal(200)
    const approved = (await admin.get(`/api/admin/audit-logs?action=AGENT_APPROVED&resourceId=${agent.id}`)).body.logs
    expect(approved).to.have.length(1)
    expect(approved[0]).to.include({ resource: 'AGENT', userId: await adminId(), ipAddress: '41.66.6.6' })

    const u = await createUser()
    const c = new Client()
    await c.login(u.email, u.password)
    await c.request('POST', '/api/auth/logout', {}, { 'X-Forwarded-For': '41.66.8.8' })
    const out = (await admin.get(`/api/admin/audit-logs?action=LOGOUT&userId=${u.id}`)).body.logs
    expect(out).to.have.length(1)
    expect(out[0]).to.include({ ipAddress: '41.66.8.8', resourceId: String(u.id) })
    const everything = (await admin.post('/api/admin/audit-logs/export', { format: 'json' })).text
    expect(everything).not.to.include('secret-pass-9')
    expect(everything).not.to.match(SECRETS)
  })

  it('scrubs secrets even when a caller passes them in details', async () => {
    await app().services.audit.record(
      { action: 'LOGIN', resource: 'USER', details: { password: 'hunter2', nested: { pin: '1234', token: 'abc' }, ok: 'kept' } },
      { ip: '1.2.3.4' }
    )
    const admin = await adminClient()
    const list = await admin.get('/api/admin/audit-logs?ipAddress=1.2.3.4')
    expect(list.body.logs).to.have.length(1)
    expect(list.body.logs[0].details).to.deep.equal({ password: '[redacted]', nested: { pin: '[redacted]', token: '[redacted]' }, ok: 'kept' })
  })
  it('a purchase leaves one ORDER_CREATED (buyer, buyer IP) and one PAYMENT_SUCCESS, however often it is confirmed, with no secret', async () => {
    const { user, password, agent } = await createAgent({ name: 'Audit Agent' })
    const buyer = new Client()
    await buyer.login(user.email, password)
    const pkg = (await models().Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const placed = await buyer.request(
      'POST',
      '/api/orders',
      { packageId: pkg, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' },
      { 'X-Forwarded-For': '41.66.99.1' }
    )
    expect(placed.status).to.equal(201)
    const tid = placed.body.payment.transactionId as string
    for (let i = 0; i < 2; i++) await new Client().post(`/api/simulator/payments/${tid}/approve`)
    for (let i = 0; i < 2; i++) await buyer.patch(`/api/orders/${placed.body.id}`, { paymentStatus: 'SUCCESS' })
    await buyer.get(`/api/payment/status/${tid}`)

    const admin = await adminClient()
    const created = (await admin.get(`/api/admin/audit-logs?action=ORDER_CREATED&resourceId=${placed.body.id}`)).body.logs
    expect(created).to.have.length(1)
    expect(created[0]).to.include({ resource: 'ORDER', userId: user.id, ipAddress: '41.66.99.1' })
    expect(created[0].user).to.deep.equal({ email: user.email, role: 'AGENT' })
    const paid = (await admin.get(`/api/admin/audit-logs?action=PAYMENT_SUCCESS&resourceId=${tid}`)).body.logs
    expect(paid).to.have.length(1)
    expect(paid[0]).to.include({ resource: 'PAYMENT', userId: user.id })
    expect((await admin.get(`/api/admin/audit-logs?userId=${user.id}`)).body.logs.map((l: any) => l.action).sort()).to.deep.equal([
      'LOGIN',
      'ORDER_CREATED',
      'PAYMENT_SUCCESS'
    ])
    const all = await admin.post('/api/admin/audit-logs/export', { format: 'json' })
    expect(all.text).not.to.match(SECRETS)
    expect(all.text).not.to.include(password)

    // The purchase shows up in the reports, reconciled with the order.
    const board = (await admin.get('/api/commission-analytics/agent-leaderboard')).body.leaderboard
    expect(board).to.deep.equal([
      {
        rank: 1,
        agentId: agent.id,
        agentName: 'Audit Agent',
        agentPhone: agent.phone,
        tier: null,
        totalRevenue: placed.body.order.amount,
        totalOrders: 1,
        totalCommission: Math.round(placed.body.order.amount * 10) / 100,
        parentMargin: 0
      }
    ])
    expect((await admin.get('/api/commission-analytics/summary')).body.combined.totalCount).to.equal(1)
  })
})

describe('audit logs: list and filters', () => {
  beforeEach(resetDb)

  it('filters by every parameter of the spec and pages newest first', async () => {
    const uid = await adminId()
    await seedLogs(uid)
    const admin = await adminClient()
    const ids = async (query: string) => {
      const r = await admin.get(`/api/admin/audit-logs?${query}`)
      expect(r.status, query).to.equal(200)
      return (r.body.logs as any[]).map((l) => l.action)
    }
    const window = 'startDate=2026-03-01&endDate=2026-03-03'
    expect(await ids(window)).to.deep.equal(['AGENT_APPROVED', 'PAYMENT_FAILED', 'SETTINGS_UPDATED', 'LOGIN'])
    expect(await ids(`${window}&userId=${uid}`)).to.deep.equal(['AGENT_APPROVED', 'SETTINGS_UPDATED', 'LOGIN'])
    expect(await ids(`${window}&action=login`)).to.deep.equal(['LOGIN'])
    expect(await ids(`${window}&resource=PAYMENT`)).to.deep.equal(['PAYMENT_FAILED'])
    expect(await ids(`${window}&resourceId=tx-abcdef123456`)).to.deep.equal(['PAYMENT_FAILED'])
    expect(await ids(`${window}&severity=critical`)).to.deep.equal(['AGENT_APPROVED'])
    expect(await ids(`${window}&ipAddress=41.66.1.1`)).to.deep.equal(['AGENT_APPROVED', 'LOGIN'])
    expect(await ids(`${window}&ipAddress=10.0.0.9`)).to.deep.equal(['PAYMENT_FAILED'])
    // A bare end date covers that whole day; a timestamp is exact.
    expect(await ids('startDate=2026-03-02&endDate=2026-03-02')).to.deep.equal(['SETTINGS_UPDATED'])
    expect(await ids('startDate=2026-03-03T00:00:00Z&endDate=2026-03-03T12:00:00Z')).to.deep.equal(['PAYMENT_FAILED'])

    const p = await admin.get(`/api/admin/audit-logs?${window}&limit=3&page=2`)
    expect(p.body.pagination).to.deep.equal({ page: 2, limit: 3, total: 4, totalPages: 2, hasNext: false, hasPrev: true, estimated: false })
    expect(p.body.logs.map((l: any) => l.action)).to.deep.equal(['LOGIN'])
    const first = await admin.get(`/api/admin/audit-logs?${window}`)
    expect(first.body.pagination.limit).to.equal(50)
    const unknownUser = first.body.logs.find((l: any) => l.action === 'PAYMENT_FAILED')
    expect(unknownUser.user).to.equal(null)
  })

  it('counts exactly up to 10,000 matches and flags an estimate beyond', async () => {
    const uid = await adminId()
    await app().db.sequelize.query(
      `INSERT INTO audit_logs (timestamp, user_id, action, resource, severity, ip_address, details)
       SELECT now() - (g || ' seconds')::interval, :uid, CASE WHEN g <= 30 THEN 'PAYMENT_FAILED' ELSE 'ORDER_CREATED' END, 'ORDER', 'LOW', '41.66.0.1', '{}'
       FROM generate_series(1, 10050) g`,
      { replacements: { uid } }
    )
    await app().db.sequelize.query('ANALYZE audit_logs')
    const admin = await adminClient()
    const big = (await admin.get('/api/admin/audit-logs?action=ORDER_CREATED')).body.pagination
    expect(big.estimated).to.equal(true)
    expect(big.total).to.be.greaterThan(10_000)
    const small = (await admin.get('/api/admin/audit-logs?action=PAYMENT_FAILED')).body.pagination
    expect(small).to.include({ total: 30, estimated: false, totalPages: 1 })
  })

  it('refuses bad filters with 400 and a message', async () => {
    const admin = await adminClient()
    for (const q of [
      'severity=SEVERE',
      'userId=abc',
      'limit=1000',
      'page=0',
      'startDate=yesterday',
      'startDate=2026-03-05&endDate=2026-03-01',
      'ipAddress=<script>',
      'action=DROP%20TABLE'
    ]) {
      const r = await admin.get(`/api/admin/audit-logs?${q}`)
      expect(r.status, q).to.equal(400)
      expect(r.body.error, q).to.be.a('string').and.not.empty
    }
  })

  it('lists the actions present for the filter menu, spec actions first', async () => {
    await seedLogs(await adminId())
    await app().services.audit.record({ action: 'ROLE_CHANGED', resource: 'USER' })
    const r = await (await adminClient()).get('/api/admin/audit-logs/actions')
    expect(r.body.actions.slice(0, 8)).to.deep.equal([
      'LOGIN',
      'LOGOUT',
      'USER_CREATED',
      'ORDER_CREATED',
      'PAYMENT_SUCCESS',
      'PAYMENT_FAILED',
      'AGENT_APPROVED',
      'SETTINGS_UPDATED'
    ])
    expect(r.body.actions).to.include('ROLE_CHANGED')
  })
})

describe('audit logs: export', () => {
  beforeEach(resetDb)

  it('exports the filtered logs as CSV that parses back, and records the export', async () => {
    const uid = await adminId()
    await seedLogs(uid)
    const admin = await adminClient()
    const r = await admin.post('/api/admin/audit-logs/export', { format: 'csv', filters: { startDate: '2026-03-01', endDate: '2026-03-03', severity: 'LOW' } })
    expect(r.status).to.equal(200)
    expect(r.headers.get('content-type')).to.match(/text\/csv/)
    expect(r.headers.get('content-disposition')).to.match(/attachment; filename="audit_logs_\d{4}-\d{2}-\d{2}\.csv"/)
    const rows = parseCsv(r.text)
    expect(rows[0]).to.deep.equal([
      'ID',
      'Timestamp',
      'User ID',
      'User Email',
      'User Role',
      'Action',
      'Resource',
      'Resource ID',
      'Severity',
      'IP Address',
      'Details'
    ])
    expect(rows).to.have.length(2)
    expect(rows[1]!.slice(1, 9)).to.deep.equal(['2026-03-01 08:00:00', String(uid), ADMIN.email, 'ADMIN', 'LOGIN', 'USER', String(uid), 'LOW'])
    expect(JSON.parse(rows[1]![10]!)).to.deep.equal({ email: ADMIN.email })
    const exported = (await models().AuditLog.findAll({ where: { action: 'AUDIT_LOGS_EXPORTED' }, raw: true })) as any[]
    expect(exported).to.have.length(1)
    expect(exported[0].userId).to.equal(uid)
    expect(exported[0].details.format).to.equal('csv')
  })

  it('exports JSON (top-level filters work too) that parses to the same shape as the list', async () => {
    await seedLogs(await adminId())
    const admin = await adminClient()
    const r = await admin.post('/api/admin/audit-logs/export', { format: 'json', startDate: '2026-03-01', endDate: '2026-03-03' })
    expect(r.status).to.equal(200)
    expect(r.headers.get('content-disposition')).to.match(/\.json"/)
    const logs = JSON.parse(r.text)
    expect(logs.map((l: any) => l.action)).to.deep.equal(['AGENT_APPROVED', 'PAYMENT_FAILED', 'SETTINGS_UPDATED', 'LOGIN'])
    const list = await admin.get('/api/admin/audit-logs?startDate=2026-03-01&endDate=2026-03-03')
    expect(logs).to.deep.equal(list.body.logs)
    const empty = await admin.post('/api/admin/audit-logs/export', { format: 'json', filters: { action: 'NOTHING_LIKE_THIS' } })
    expect(JSON.parse(empty.text)).to.deep.equal([])
  })

  it('streams a large export completely in batches, rows sharing a timestamp included once', async () => {
    const uid = await adminId()
    await app().db.sequelize.query(
      `INSERT INTO audit_logs (timestamp, user_id, action, resource, severity, ip_address, details)
       SELECT now() - ((g / 3) || ' seconds')::interval, :uid, 'ORDER_CREATED', 'ORDER', 'LOW', '41.66.0.1', jsonb_build_object('n', g) FROM generate_series(1, 10500) g`,
      { replacements: { uid } }
    )
    const r = await (await adminClient()).post('/api/admin/audit-logs/export', { format: 'csv', filters: { action: 'ORDER_CREATED' } })
    const rows = parseCsv(r.text)
    expect(rows).to.have.length(10501)
    expect(new Set(rows.slice(1).map((x) => x[0])).size).to.equal(10500)
  })

  it('refuses an unknown format', async () => {
    const r = await (await adminClient()).post('/api/admin/audit-logs/export', { format: 'xml' })
    expect(r.status).to.equal(400)
    expect(r.body.error).to.equal('format must be csv or json')
  })
})
