import { expect } from 'chai'
import { Client, adminClient } from '../helpers/http.ts'
import { createAgent, createUser } from '../helpers/factories.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { limitKey } from '../../server/services/limits/index.ts'

describe('auth API', () => {
  beforeEach(resetDb)

  it('signs the seeded admin in with the spec fields and a session cookie', async () => {
    const c = new Client()
    const res = await c.login(ADMIN.email, ADMIN.password)
    expect(res.status).to.equal(200)
    expect(res.body).to.include({ role: 'ADMIN', email: ADMIN.email, expiresIn: 3600 })
    expect(res.body.accessToken).to.be.a('string').with.length.above(20)
    expect(res.body.refreshToken).to.be.a('string').with.length.above(20)
    const cookie = res.headers.getSetCookie().find((h) => h.startsWith('datahub.sid='))!
    expect(cookie)
      .to.match(/HttpOnly/i)
      .and.match(/SameSite=Lax/i)
    const me = await c.get('/api/auth/me')
    expect(me.status).to.equal(200)
    expect(me.body.user).to.include({ email: ADMIN.email, role: 'ADMIN' })
  })

  it('gives a new session id at login (no fixation)', async () => {
    const c = new Client()
    await c.post('/api/auth/login', { email: ADMIN.email, password: 'wrong-password' })
    c.cookies.set('datahub.sid', 's%3Aattacker-chosen.sig')
    await c.login(ADMIN.email, ADMIN.password)
    expect(c.cookies.get('datahub.sid')).to.not.equal('s%3Aattacker-chosen.sig')
  })

  it('answers an unknown email and a wrong password the same way', async () => {
    const a = await new Client().post('/api/auth/login', { email: 'nobody@test.local', password: 'whatever-1' })
    const b = await new Client().post('/api/auth/login', { email: ADMIN.email, password: 'whatever-1' })
    expect(a.status).to.equal(401)
    expect(b.status).to.equal(401)
    expect(a.body).to.deep.equal(b.body)
  })

  it('asks for both fields with the spec text', async () => {
    const res = await new Client().post('/api/auth/login', { email: '', password: '' })
    expect(res.status).to.equal(400)
    expect(res.body.error).to.equal('Enter email and password')
  })

  it('checks sign-in and change-password once, at the edge, in the words they always had; a request without a body is a 400, never a 500', async () => {
    const login = (body?: unknown) => new Client().post('/api/auth/login', body)
    const answers = await Promise.all([login(), login({ email: ADMIN.email }), login({ email: ADMIN.email, password: 'x', remember: true })])
    expect(answers.map((r) => [r.status, r.body.error])).to.deep.equal([
      [400, 'Enter email and password'],
      [400, 'Enter email and password'],
      [400, '"remember" is not allowed']
    ])
    const admin = await adminClient()
    const change = (body: unknown) => admin.post('/api/auth/change-password', body)
    expect((await change({ currentPassword: ADMIN.password })).body.error).to.equal('All password fields are required')
    expect((await change({ currentPassword: ADMIN.password, newPassword: '12345' })).body.error).to.equal('Password must be at least 6 characters')
    expect((await change({ currentPassword: 'not-it', newPassword: '123456' })).body.error).to.equal('Current password is incorrect')
  })

  it('makes the address that failed 5 times wait (429, even with the right password); other accounts from it still work', async () => {
    const user = await createUser({ email: 'victim@test.local' })
    for (let i = 0; i < 5; i++) {
      const r = await new Client().post('/api/auth/login', { email: user.email, password: `wrong-${i}` })
      expect(r.status).to.equal(401)
    }
    const locked = await new Client().post('/api/auth/login', { email: user.email, password: user.password })
    expect(locked.status).to.equal(429)
    expect(Number(locked.headers.get('retry-after'))).to.be.within(1, 60)
    // Throttling is per account AND address: another account from the same address is not affected.
    expect((await new Client().login(ADMIN.email, ADMIN.password)).status).to.equal(200)
  })

  it("a right password clears that address's failures for the account, so a typo now and then never adds up to a wait", async () => {
    const user = await createUser({ email: 'typist@test.local' })
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 4; i++) expect((await new Client().post('/api/auth/login', { email: user.email, password: `typo-${i}` })).status).to.equal(401)
      expect((await new Client().login(user.email, user.password)).status, `round ${round}`).to.equal(200)
    }
  })

  it('one address failing against many accounts waits after 200 failures in the hour', async () => {
    // 200 failures from one address, as the limiter's store keeps them (decision 0016), without 200 slow logins.
    await app().db.sequelize.query('INSERT INTO rate_limiter_flexible (key, points, expire) VALUES (:key, 200, :expire)', {
      replacements: { key: `login_ip:${limitKey('127.0.0.1')}`, expire: Date.now() + 3_600_000 }
    })
    const user = await createUser({ email: 'nat@test.local' })
    expect((await new Client().post('/api/auth/login', { email: user.email, password: 'wrong' })).status).to.equal(401)
    const refused = await new Client().login(user.email, user.password)
    expect(refused.status).to.equal(429)
    expect(Number(refused.headers.get('retry-after'))).to.be.within(3000, 3600)
  })

  it('authenticates non-browser clients with the Bearer access token, and refreshes it', async () => {
    const login = await new Client().login(ADMIN.email, ADMIN.password)
    const api = new Client()
    api.bearer = login.body.accessToken
    expect((await api.get('/api/auth/me')).status).to.equal(200)
    const refreshed = await new Client().post('/api/auth/refresh', { refreshToken: login.body.refreshToken })
    expect(refreshed.status).to.equal(200)
    expect(refreshed.body.accessToken).to.be.a('string').and.not.equal(login.body.accessToken)
    const bad = await new Client().post('/api/auth/refresh', { refreshToken: 'nope' })
    expect(bad.status).to.equal(401)
    api.bearer = 'not-a-token'
    expect((await api.get('/api/auth/me')).status).to.equal(401)
  })

  it('stores tokens hashed, never in clear', async () => {
    const login = await new Client().login(ADMIN.email, ADMIN.password)
    const rows = await app().db.models.AuthToken.findAll({ raw: true })
    const stored = JSON.stringify(rows)
    expect(stored).to.not.include(login.body.accessToken)
    expect(stored).to.not.include(login.body.refreshToken)
  })

  it('logout destroys the session and revokes the tokens, and is audited with the IP', async () => {
    const c = new Client()
    const login = await c.login(ADMIN.email, ADMIN.password)
    expect((await c.post('/api/auth/logout')).status).to.equal(200)
    expect((await c.get('/api/auth/me')).status).to.equal(401)
    const bearer = new Client()
    bearer.bearer = login.body.accessToken
    expect((await bearer.get('/api/auth/me')).status).to.equal(401)
    const logs = await app().db.models.AuditLog.findAll({ raw: true, order: [['id', 'ASC']] })
    expect(logs.map((l: any) => l.action)).to.include.members(['LOGIN', 'LOGOUT'])
    const sessionLogs = (logs as any[]).filter((l) => l.action === 'LOGIN' || l.action === 'LOGOUT')
    expect(sessionLogs).to.have.length(2)
    for (const l of sessionLogs) expect(l.ipAddress).to.match(/127\.0\.0\.1/)
  })

  it('changes the password: checks the current one, the length, and revokes old tokens', async () => {
    const { user, password } = await createAgent({ email: 'agent-pw@test.local' })
    const c = new Client()
    const login = await c.login(user.email, password)
    const short = await c.post('/api/auth/change-password', { currentPassword: password, newPassword: '123' })
    expect(short.status).to.equal(400)
    expect(short.body.error).to.equal('Password must be at least 6 characters')
    const wrong = await c.post('/api/auth/change-password', { currentPassword: 'not-it', newPassword: 'new-secret-1' })
    expect(wrong.status).to.equal(400)
    const ok = await c.post('/api/auth/change-password', { currentPassword: password, newPassword: 'new-secret-1' })
    expect(ok.status).to.equal(200)
    const old = new Client()
    old.bearer = login.body.accessToken
    expect((await old.get('/api/auth/me')).status).to.equal(401)
    expect((await new Client().login(user.email, password)).status).to.equal(401)
    expect((await new Client().login(user.email, 'new-secret-1')).status).to.equal(200)
  })

  it('reports the agent id and approval on /me for agents', async () => {
    const { user, agent, password } = await createAgent({ approved: false, paymentStatus: null })
    const c = new Client()
    await c.login(user.email, password)
    const me = await c.get('/api/auth/me')
    expect(me.body.agent).to.include({ id: agent.id, approved: false })
  })
})
