import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { latestResetCode } from '../helpers/outbox.ts'
import { app, resetDb } from '../helpers/server.ts'

/** Sessions end when they should, cookie and bearer alike; refresh tokens rotate. */
describe('sessions end when they should', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  async function signedIn(email: string, password: string) {
    const cookie = new Client()
    expect((await cookie.login(email, password)).status).to.equal(200)
    const bearer = new Client()
    const login = await new Client().post('/api/auth/login', { email, password })
    bearer.bearer = login.body.accessToken
    return { cookie, bearer, refreshToken: login.body.refreshToken as string }
  }

  const sessionRows = async (userId: number) =>
    (
      await app().db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM session WHERE sess->>'userId' = :u`, {
        replacements: { u: String(userId) },
        type: QueryTypes.SELECT
      })
    )[0]!.n

  it('changing the password ends every other cookie session and token, and keeps the one that changed it', async () => {
    const { user, password } = await createAgent()
    const other = await signedIn(user.email, password)
    const me = new Client()
    await me.login(user.email, password)
    const res = await me.post('/api/auth/change-password', { currentPassword: password, newPassword: 'brand-new-pass' })
    expect(res.status).to.equal(200)
    expect((await me.get('/api/auth/me')).status).to.equal(200)
    expect((await other.cookie.get('/api/auth/me')).status).to.equal(401)
    expect((await other.bearer.get('/api/auth/me')).status).to.equal(401)
    expect((await new Client().post('/api/auth/refresh', { refreshToken: other.refreshToken })).status).to.equal(401)
    expect(Number(await sessionRows(user.id))).to.equal(1)
  })

  it('changing the password over a bearer token keeps that token family only', async () => {
    const { user, password } = await createAgent()
    const other = await signedIn(user.email, password)
    const me = new Client()
    me.bearer = (await new Client().post('/api/auth/login', { email: user.email, password })).body.accessToken
    expect((await me.post('/api/auth/change-password', { currentPassword: password, newPassword: 'brand-new-pass' })).status).to.equal(200)
    expect((await me.get('/api/auth/me')).status).to.equal(200)
    expect((await other.bearer.get('/api/auth/me')).status).to.equal(401)
    expect((await other.cookie.get('/api/auth/me')).status).to.equal(401)
  })

  it('"log out everywhere" ends the other sessions and tokens, is audited, and keeps this one', async () => {
    const { user, password } = await createAgent()
    const other = await signedIn(user.email, password)
    const me = new Client()
    await me.login(user.email, password)
    const res = await me.post('/api/auth/logout-everywhere')
    expect(res.status).to.equal(200)
    expect((await me.get('/api/auth/me')).status).to.equal(200)
    expect((await other.cookie.get('/api/auth/me')).status).to.equal(401)
    expect((await other.bearer.get('/api/auth/me')).status).to.equal(401)
    const audit = await app().db.models.AuditLog.findOne({ where: { action: 'SESSIONS_ENDED' }, raw: true })
    expect((audit as any).details.reason).to.equal('LOGOUT_EVERYWHERE')
  })

  it('a session row written back by a racing request is still refused (epoch)', async () => {
    const { user, password } = await createAgent()
    const stale = new Client()
    await stale.login(user.email, password)
    const sid = decodeURIComponent(stale.cookies.get('datahub.sid')!).slice(2).split('.')[0]!
    const [row] = await app().db.sequelize.query<{ sess: unknown; expire: Date }>('SELECT sess, expire FROM session WHERE sid = :sid', {
      replacements: { sid },
      type: QueryTypes.SELECT
    })
    const me = new Client()
    await me.login(user.email, password)
    expect((await me.post('/api/auth/logout-everywhere')).status).to.equal(200)
    await app().db.sequelize.query('INSERT INTO session (sid, sess, expire) VALUES (:sid, :sess, :expire)', {
      replacements: { sid, sess: JSON.stringify(row!.sess), expire: row!.expire }
    })
    expect((await stale.get('/api/auth/me')).status).to.equal(401)
    // The browser with the ended session signs in again normally.
    expect((await stale.login(user.email, password)).status).to.equal(200)
    expect((await stale.get('/api/auth/me')).status).to.equal(200)
  })

  it('a browser whose session was ended can sign in again on its old cookie', async () => {
    const { user, password } = await createAgent()
    const other = new Client()
    await other.login(user.email, password)
    const me = new Client()
    await me.login(user.email, password)
    expect((await me.post('/api/auth/logout-everywhere')).status).to.equal(200)
    const again = await other.post('/api/auth/login', { email: user.email, password })
    expect(again.status).to.equal(200)
    other.csrf = again.body.csrfToken
    expect((await other.get('/api/auth/me')).status).to.equal(200)
    expect((await other.post('/api/auth/logout-everywhere')).status).to.equal(200)
  })

  it("an admin sending a password reset ends the account's sessions at once, and never answers a code", async () => {
    const { user, password } = await createAgent()
    const other = await signedIn(user.email, password)
    const admin = await adminClient()
    const res = await admin.post(`/api/admin/users/${user.id}/password-reset`)
    expect(res.status).to.equal(200)
    const code = await latestResetCode(user.phone as string)
    expect(code).to.match(/^\d{6}$/)
    expect(res.text).to.not.include(code!)
    expect((await other.cookie.get('/api/auth/me')).status).to.equal(401)
    expect((await other.bearer.get('/api/auth/me')).status).to.equal(401)
    expect((await admin.get('/api/auth/me')).status).to.equal(200)
    const sent = await app().db.models.AuditLog.findOne({ where: { action: 'ADMIN_PASSWORD_RESET_SENT' }, raw: true })
    expect(JSON.stringify(sent)).to.not.include(code!)
  })

  it('refresh tokens rotate: each works once and answers a new pair', async () => {
    const login = await new Client().post('/api/auth/login', { email: 'admin@test.local', password: 'admin-pass-123' })
    const first = await new Client().post('/api/auth/refresh', { refreshToken: login.body.refreshToken })
    expect(first.status).to.equal(200)
    expect(first.body.refreshToken).to.be.a('string').and.not.equal(login.body.refreshToken)
    const second = await new Client().post('/api/auth/refresh', { refreshToken: first.body.refreshToken })
    expect(second.status).to.equal(200)
    const c = new Client()
    c.bearer = second.body.accessToken
    expect((await c.get('/api/auth/me')).status).to.equal(200)
  })

  it('reusing a rotated refresh token ends the whole family, and is audited', async () => {
    const login = await new Client().post('/api/auth/login', { email: 'admin@test.local', password: 'admin-pass-123' })
    const other = await new Client().post('/api/auth/login', { email: 'admin@test.local', password: 'admin-pass-123' })
    const rotated = await new Client().post('/api/auth/refresh', { refreshToken: login.body.refreshToken })
    expect(rotated.status).to.equal(200)
    const replay = await new Client().post('/api/auth/refresh', { refreshToken: login.body.refreshToken })
    expect(replay.status).to.equal(401)
    const thief = new Client()
    thief.bearer = rotated.body.accessToken
    expect((await thief.get('/api/auth/me')).status).to.equal(401)
    expect((await new Client().post('/api/auth/refresh', { refreshToken: rotated.body.refreshToken })).status).to.equal(401)
    // Another sign-in of the same user (another family) is untouched.
    const fine = new Client()
    fine.bearer = other.body.accessToken
    expect((await fine.get('/api/auth/me')).status).to.equal(200)
    expect(await app().db.models.AuditLog.count({ where: { action: 'REFRESH_TOKEN_REUSED' } })).to.equal(1)
  })
})
