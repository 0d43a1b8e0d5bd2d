import { expect } from 'chai'
import { Client, adminClient } from '../helpers/http.ts'
import { createAgent, createPackage, createUser } from '../helpers/factories.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'

const models = () => app().db.models

async function agentClient() {
  const { user, password, agent } = await createAgent()
  const c = new Client()
  await c.login(user.email, password)
  return { c, user, agent }
}

describe('back office B: admin endpoints refuse non-admins', () => {
  beforeEach(resetDb)

  const calls: Array<[string, string, unknown?]> = [
    ['GET', '/api/admin/users'],
    ['PATCH', '/api/admin/users/1/role', { role: 'ADMIN' }],
    ['GET', '/api/admin/agents'],
    ['POST', '/api/packages', { network: 'MTN', sizeMB: 1024, priceUser: 1, priceAgent: 1, active: true }],
    ['GET', '/api/ussd-whitelist'],
    ['POST', '/api/ussd-whitelist', { phoneNumber: '0241234567' }],
    ['PUT', '/api/ussd-whitelist/1', { isActive: false }],
    ['DELETE', '/api/ussd-whitelist/1'],
    ['POST', '/api/ussd-whitelist/bulk-import', { phoneNumbers: ['0241234567'] }],
    ['POST', '/api/admin-messages', { title: 't', message: 'm', priority: 'LOW', recipientIds: [1] }],
    ['GET', '/api/admin-messages'],
    ['DELETE', '/api/admin-messages/1']
  ]

  it('answers visitors 401 and agents 403 on every route, without data, changing nothing', async () => {
    const { c: agent } = await agentClient()
    const publicUser = await createUser()
    const pub = new Client()
    await pub.login(publicUser.email, publicUser.password)
    const visitor = new Client()
    for (const [method, path, body] of calls) {
      const v = await visitor.request(method, path, body)
      expect(v.status, `visitor ${method} ${path}`).to.equal(401)
      for (const [who, cl] of [
        ['agent', agent],
        ['customer', pub]
      ] as const) {
        const r = await cl.request(method, path, body)
        expect(r.status, `${who} ${method} ${path}`).to.equal(403)
        expect(Object.keys(r.body)).to.have.members(['error', 'message'])
      }
    }
    expect(await models().UssdWhitelist.count()).to.equal(0)
    expect(await models().AdminMessage.count()).to.equal(0)
    expect(await models().Package.count()).to.equal(9)
    expect(await models().User.count({ where: { role: 'ADMIN' } })).to.equal(1)
  })
})

describe('back office B: users and roles', () => {
  beforeEach(resetDb)

  it('pages users in SQL with the pagination fields, newest first, filtered by role and agent status', async () => {
    for (let i = 0; i < 23; i++) await createUser()
    await createAgent({ approved: true, paymentStatus: 'SUCCESS' })
    await createAgent({ approved: false, paymentStatus: 'PENDING' })
    await createAgent({ approved: false, paymentStatus: 'FAILED' })
    const admin = await adminClient()
    const p1 = await admin.get('/api/admin/users?page=1&limit=20')
    expect(p1.status).to.equal(200)
    expect(p1.body.users).to.have.length(20)
    expect(p1.body.pagination).to.deep.equal({ page: 1, limit: 20, total: 27, totalPages: 2, hasNext: true, hasPrev: false })
    const p2 = await admin.get('/api/admin/users?page=2&limit=20')
    expect(p2.body.users).to.have.length(7)
    expect(p2.body.pagination).to.include({ hasNext: false, hasPrev: true })
    const ids = [...p1.body.users, ...p2.body.users].map((u: any) => u.id)
    expect(new Set(ids).size).to.equal(27)
    expect(p1.body.users[0]).to.not.have.property('passwordHash')

    const agents = await admin.get('/api/admin/users?role=AGENT')
    expect(agents.body.pagination.total).to.equal(3)
    expect(agents.body.users.every((u: any) => u.role === 'AGENT' && u.agent)).to.equal(true)
    expect((await admin.get('/api/admin/users?role=ADMIN')).body.users.map((u: any) => u.email)).to.deep.equal([ADMIN.email])
    const approved = (await admin.get('/api/admin/users?agentStatus=approved')).body.users
    expect(approved).to.have.length(1)
    expect(approved[0].agent).to.include({ approved: true, paymentStatus: 'SUCCESS' })
    const pending = (await admin.get('/api/admin/users?agentStatus=pending')).body.users
    expect(pending.map((u: any) => u.agent.paymentStatus)).to.deep.equal(['PENDING'])
    const rejected = (await admin.get('/api/admin/users?agentStatus=rejected')).body.users
    expect(rejected.map((u: any) => u.agent.paymentStatus)).to.deep.equal(['FAILED'])
    expect((await admin.get('/api/admin/users?role=HACKER')).status).to.equal(400)
    expect((await admin.get('/api/admin/users?limit=100000')).status).to.equal(400)
  })

  it('changes another user role, audits it, and the new role takes effect at once', async () => {
    const target = await createUser()
    const c = new Client()
    await c.login(target.email, target.password)
    expect((await c.get('/api/admin/users')).status).to.equal(403)
    const admin = await adminClient()
    const res = await admin.patch(`/api/admin/users/${target.id}/role`, { role: 'ADMIN' })
    expect(res.status).to.equal(200)
    expect(res.body.message).to.equal('User role updated successfully')
    expect(res.body.user).to.include({ id: target.id, role: 'ADMIN' })
    expect((await c.get('/api/admin/users')).status).to.equal(200)
    const log = (await models().AuditLog.findOne({ where: { action: 'USER_ROLE_CHANGED' }, raw: true })) as any
    expect(log).to.include({ resource: 'USER', resourceId: String(target.id) })
    expect(log.details).to.include({ from: 'PUBLIC', to: 'ADMIN' })
    expect((await admin.patch('/api/admin/users/999999/role', { role: 'AGENT' })).status).to.equal(404)
    // Checked at the edge in the words they always had: the id before the body.
    const refused = await Promise.all(
      [
        [`/api/admin/users/${target.id}/role`, { role: 'OWNER' }],
        [`/api/admin/users/${target.id}/role`, {}],
        ['/api/admin/users/abc/role', { role: 'AGENT' }],
        ['/api/admin/users/abc/role', {}]
      ].map(([url, body]) => admin.patch(url as string, body))
    )
    expect(refused.map((r) => [r.status, r.body.error])).to.deep.equal([
      [400, 'Role must be PUBLIC, AGENT or ADMIN'],
      [400, 'Role is required'],
      [400, 'Invalid user id'],
      [400, 'Invalid user id']
    ])
  })

  it("refuses a role change on one's own account", async () => {
    const admin = await adminClient()
    const me = (await admin.get('/api/auth/me')).body
    const myId = me.user?.id ?? me.id
    const res = await admin.patch(`/api/admin/users/${myId}/role`, { role: 'PUBLIC' })
    expect(res.status).to.equal(403)
    expect(res.body.error).to.equal('You cannot change your own role')
    expect((await models().User.findByPk(myId))!.get('role')).to.equal('ADMIN')
    expect(await models().AuditLog.count({ where: { action: 'USER_ROLE_CHANGED' } })).to.equal(0)
  })

  it('lists agent users for messaging with id, email and agent.approved', async () => {
    const a = await createAgent({ approved: true })
    const b = await createAgent({ approved: false, paymentStatus: 'PENDING' })
    await createUser()
    const res = await (await adminClient()).get('/api/admin/agents')
    expect(res.status).to.equal(200)
    expect(res.body.agents).to.have.length(2)
    const byId = new Map(res.body.agents.map((x: any) => [x.id, x]))
    expect((byId.get(a.user.id) as any).agent.approved).to.equal(true)
    expect(byId.get(b.user.id) as any).to.deep.include({ email: b.user.email })
    expect((byId.get(b.user.id) as any).agent.approved).to.equal(false)
  })
})

describe('back office B: packages', () => {
  beforeEach(resetDb)

  it('creates and updates packages in MB and GHS, stores pesewas, and audits as SYSTEM', async () => {
    const admin = await adminClient()
    const created = await admin.post('/api/packages', { network: 'TELECEL', sizeMB: Math.round(1.5 * 1024), priceUser: 7.5, priceAgent: 7, active: true })
    expect(created.status).to.equal(201)
    expect(created.body.message).to.equal('Package created')
    expect(created.body.package).to.include({ network: 'TELECEL', sizeMB: 1536, priceUser: 7.5, priceAgent: 7, active: true, name: '1.5GB' })
    const id = created.body.package.id
    const row = (await models().Package.findByPk(id))!.get({ plain: true }) as any
    expect(row).to.include({ priceUserPesewas: 750, priceAgentPesewas: 700, sizeMb: 1536 })

    const updated = await admin.post('/api/packages', { id, network: 'TELECEL', sizeMB: 1536, priceUser: 8.25, priceAgent: null, active: false })
    expect(updated.status).to.equal(200)
    expect(updated.body.message).to.equal('Package updated')
    expect(updated.body.package).to.include({ id, priceUser: 8.25, priceAgent: null, active: false })
    expect(await models().Package.count()).to.equal(10)
    const logs = (await models().AuditLog.findAll({ where: { resource: 'SYSTEM' }, order: [['id', 'ASC']], raw: true })) as any[]
    expect(logs.map((l) => l.action)).to.deep.equal(['PACKAGE_CREATED', 'PACKAGE_UPDATED'])
    expect(logs[1].details.changed).to.have.members(['priceUser', 'priceAgent', 'active'])
    expect((await admin.post('/api/packages', { id: 99999, network: 'MTN', sizeMB: 1024, priceUser: 1 })).status).to.equal(404)
  })

  it('refuses invalid packages with the spec message and changes nothing', async () => {
    const admin = await adminClient()
    const pkg = await createPackage({ priceUserPesewas: 500 })
    const bad: unknown[] = [
      {},
      { network: 'GLO', sizeMB: 1024, priceUser: 5 },
      { network: 'MTN', sizeMB: 50, priceUser: 5 },
      { network: 'MTN', sizeMB: 0, priceUser: 5 },
      { network: 'MTN', sizeMB: 1024, priceUser: -1 },
      { network: 'MTN', sizeMB: 1024, priceUser: 5, priceAgent: -0.5 },
      { network: 'MTN', sizeMB: 1024, priceUser: 'five' },
      { network: 'MTN', sizeMB: 1024.5, priceUser: 5 },
      { id: pkg.id, network: 'MTN', sizeMB: 1024, priceUser: -3 },
      // A price of 0 (or one that rounds to 0 pesewas) would sell data for nothing.
      { network: 'MTN', sizeMB: 1024, priceUser: 0 },
      { network: 'MTN', sizeMB: 1024, priceUser: 0.004 }
    ]
    for (const body of bad) {
      const res = await admin.post('/api/packages', body)
      expect(res.status, JSON.stringify(body)).to.equal(400)
      expect(res.body.error).to.equal('Fill all fields correctly')
    }
    // API clients get the field's own reason beside the spec's one message.
    const zero = await admin.post('/api/packages', { network: 'MTN', sizeMB: 1024, priceUser: 0 })
    expect(zero.body.details).to.equal('priceUser must be at least 0.01 GHS')
    expect(await models().Package.count()).to.equal(10)
    expect((await models().Package.findByPk(pkg.id))!.get('priceUserPesewas')).to.equal(500)
    // 0.1 GB is the smallest allowed size (102 MB after rounding); 0.01 is the smallest price.
    const small = await admin.post('/api/packages', { network: 'MTN', sizeMB: 102, priceUser: 0.01 })
    expect(small.status).to.equal(201)
    expect(small.body.package).to.include({ sizeMB: 102, name: '102MB', priceAgent: null })
  })
})

describe('back office B: settings validation', () => {
  beforeEach(resetDb)

  it('refuses bad values with 400 and changes nothing', async () => {
    const admin = await adminClient()
    const before = (await admin.get('/api/settings')).body
    const bad = [
      { commissionPercentage: 100.5 },
      { commissionPercentage: -1 },
      { commissionFixedAmount: -2 },
      { agentRegistrationFee: 'ten' },
      { afaRegistrationFee: -0.01 },
      { commissionType: 'BOTH' },
      { visitorMessageType: 'DANGER' },
      { paymentGateway: 'cash' },
      { platformOpen: 'maybe' },
      { siteName: '' }
    ]
    for (const change of bad) {
      const res = await admin.put('/api/settings', { ...before, siteName: 'Changed', ...change })
      expect(res.status, JSON.stringify(change)).to.equal(400)
      expect(res.body.error).to.be.a('string').and.not.empty
    }
    app().services.settings.invalidate()
    expect((await admin.get('/api/settings')).body).to.deep.equal(before)
    const ok = await admin.put('/api/settings', { ...before, commissionPercentage: 12.5, platformOpen: false })
    expect(ok.status).to.equal(200)
    expect(ok.body).to.include({ commissionPercentage: 12.5, platformOpen: false })
  })
})

describe('back office B: USSD whitelist', () => {
  beforeEach(resetDb)

  it('adds numbers stored as 0XXXXXXXXX, refuses blanks, bad formats and duplicates in either spelling', async () => {
    const admin = await adminClient()
    const res = await admin.post('/api/ussd-whitelist', { phoneNumber: ' 233241234567 ' })
    expect(res.status).to.equal(201)
    expect(res.body.entry).to.include({ phoneNumber: '0241234567', isActive: true })
    const dup = await admin.post('/api/ussd-whitelist', { phoneNumber: '0241234567' })
    expect(dup.status).to.equal(409)
    expect(dup.body.error).to.equal('Phone number is already whitelisted')
    expect((await admin.post('/api/ussd-whitelist', { phoneNumber: '   ' })).body.error).to.equal('Please enter a phone number')
    for (const bad of ['12345', '02412345678', '244123456789', '024abc4567']) {
      const r = await admin.post('/api/ussd-whitelist', { phoneNumber: bad })
      expect(r.status, bad).to.equal(400)
    }
    const list = await admin.get('/api/ussd-whitelist')
    expect(list.body.entries.map((e: any) => e.phoneNumber)).to.deep.equal(['0241234567'])
    expect(list.body.enabled).to.equal(false)
  })

  it('bulk import counts added, skipped (existing, repeated, both spellings once) and errors', async () => {
    const admin = await adminClient()
    await admin.post('/api/ussd-whitelist', { phoneNumber: '0201111111' })
    const res = await admin.post('/api/ussd-whitelist/bulk-import', {
      phoneNumbers: ['0241234567', '233241234567', '0241234567', '233201111111', '0551234567', 'abc', '12345', '', '  ', '+233 27 123 4567']
    })
    expect(res.status).to.equal(200)
    expect(res.body.results.added).to.equal(3)
    expect(res.body.results.skipped).to.equal(3)
    expect(res.body.results.errors).to.have.length(2)
    expect(res.body.results.errors.map((e: any) => e.phoneNumber)).to.deep.equal(['abc', '12345'])
    const stored = ((await models().UssdWhitelist.findAll({ raw: true })) as any[]).map((r) => r.phoneNumber).sort()
    expect(stored).to.deep.equal(['0201111111', '0241234567', '0271234567', '0551234567'])
    const again = await admin.post('/api/ussd-whitelist/bulk-import', { phoneNumbers: ['233551234567'] })
    expect(again.body.results).to.deep.equal({ added: 0, skipped: 1, errors: [] })
    expect((await admin.post('/api/ussd-whitelist/bulk-import', { phoneNumbers: [] })).body.error).to.equal('No valid phone numbers found')
    expect((await admin.post('/api/ussd-whitelist/bulk-import', {})).status).to.equal(400)
  })

  it('switches an entry active/inactive, deletes it, and isAllowed follows the enable switch', async () => {
    const admin = await adminClient()
    const { entry } = (await admin.post('/api/ussd-whitelist', { phoneNumber: '0241234567' })).body
    const svc = app().services.whitelist
    expect(await svc.isAllowed('0209999999')).to.equal(true)
    expect((await admin.put('/api/settings', { ussdWhitelistEnabled: true })).status).to.equal(200)
    expect(await svc.isAllowed('+233241234567')).to.equal(true)
    expect(await svc.isAllowed('0209999999')).to.equal(false)
    const off = await admin.put(`/api/ussd-whitelist/${entry.id}`, { isActive: false })
    expect(off.body.entry.isActive).to.equal(false)
    expect(await svc.isAllowed('0241234567')).to.equal(false)
    expect((await admin.put(`/api/ussd-whitelist/${entry.id}`, { isActive: 'sometimes' })).status).to.equal(400)
    expect((await admin.put('/api/ussd-whitelist/9999', { isActive: true })).status).to.equal(404)
    expect((await admin.delete(`/api/ussd-whitelist/${entry.id}`)).status).to.equal(200)
    expect((await admin.delete(`/api/ussd-whitelist/${entry.id}`)).status).to.equal(404)
    expect(await models().UssdWhitelist.count()).to.equal(0)
  })
})

describe('back office B: admin messages', () => {
  beforeEach(resetDb)

  it('sends to agent users, lists history with read state per recipient, filters by priority, deletes', async () => {
    const a = await createAgent()
    const b = await createAgent({ approved: false, paymentStatus: 'PENDING' })
    const admin = await adminClient()
    const sent = await admin.post('/api/admin-messages', {
      title: ' Price change ',
      message: 'MTN prices drop today',
      priority: 'HIGH',
      recipientIds: [a.user.id, b.user.id]
    })
    expect(sent.status).to.equal(201)
    await admin.post('/api/admin-messages', { title: 'Hello', message: 'Welcome', priority: 'LOW', recipientIds: [a.user.id] })
    const id = sent.body.data.id
    await models().AdminMessageRecipient.update({ isRead: true, readAt: new Date() }, { where: { messageId: id, userId: a.user.id } })

    const all = await admin.get('/api/admin-messages')
    expect(all.status).to.equal(200)
    expect(all.body.messages.map((m: any) => m.title)).to.deep.equal(['Hello', 'Price change'])
    const high = (await admin.get('/api/admin-messages?priority=HIGH')).body.messages
    expect(high).to.have.length(1)
    expect(high[0]).to.include({ priority: 'HIGH', recipientCount: 2, readCount: 1 })
    const state = Object.fromEntries(high[0].recipients.map((r: any) => [r.user.email, r.isRead]))
    expect(state).to.deep.equal({ [a.user.email]: true, [b.user.email]: false })

    const del = await admin.delete(`/api/admin-messages/${id}`)
    expect(del.status).to.equal(200)
    expect(await models().AdminMessageRecipient.count({ where: { messageId: id } })).to.equal(0)
    expect((await admin.delete(`/api/admin-messages/${id}`)).status).to.equal(404)
  })

  it('refuses blank title or message, no recipients, bad priority and non-agent recipients', async () => {
    const a = await createAgent()
    const customer = await createUser()
    const admin = await adminClient()
    const base = { title: 'T', message: 'M', priority: 'NORMAL', recipientIds: [a.user.id] }
    for (const body of [
      { ...base, title: '   ' },
      { ...base, message: '' },
      { ...base, recipientIds: [] },
      { ...base, priority: 'CRITICAL' },
      { ...base, recipientIds: [a.user.id, customer.id] },
      { ...base, recipientIds: [424242] }
    ]) {
      const res = await admin.post('/api/admin-messages', body)
      expect(res.status, JSON.stringify(body)).to.equal(400)
    }
    expect((await admin.post('/api/admin-messages', { ...base, recipientIds: [customer.id] })).body.error).to.equal('Recipients must be agents')
    expect(await models().AdminMessage.count()).to.equal(0)
  })
})
