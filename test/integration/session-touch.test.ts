import { expect } from 'chai'
import session from 'express-session'
import { QueryTypes } from 'sequelize'
import { createSessionStore } from '../../server/http/middleware/session-store.ts'
import { createAgent } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

/** Signed-in reads do not write the session row each time; sessions still idle out, never later. */
describe('session expiry moves at most once a minute on reads', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  const sidOf = (c: Client) => decodeURIComponent(c.cookies.get('datahub.sid')!).slice(2).split('.')[0]!
  const expireOf = async (sid: string) =>
    (
      await app().db.sequelize.query<{ expire: Date }>('SELECT expire FROM session WHERE sid = :sid', { replacements: { sid }, type: QueryTypes.SELECT })
    )[0]?.expire.getTime()
  const moveExpire = (sid: string, seconds: number) =>
    app().db.sequelize.query(`UPDATE session SET expire = now() + make_interval(secs => :seconds) WHERE sid = :sid`, { replacements: { sid, seconds } })

  it('a read within a minute of the sign-in leaves the row as it was', async () => {
    const { user, password } = await createAgent()
    const me = new Client()
    expect((await me.login(user.email, password)).status).to.equal(200)
    const sid = sidOf(me)
    // As if the sign-in were 30 s ago: a rolling touch would set it 30 minutes from now again.
    await moveExpire(sid, 30 * 60 - 30)
    const before = await expireOf(sid)
    expect((await me.get('/api/auth/me')).status).to.equal(200)
    expect((await me.get('/agent/dashboard')).status).to.equal(200)
    expect(await expireOf(sid)).to.equal(before)
  })

  it('a request that is not a read moves the expiry at once: "Extend Session" extends', async () => {
    const { user, password } = await createAgent()
    const me = new Client()
    await me.login(user.email, password)
    const sid = sidOf(me)
    await moveExpire(sid, 30 * 60 - 30)
    const before = await expireOf(sid)
    expect((await me.post('/api/auth/refresh', {})).status).to.equal(200)
    expect(await expireOf(sid)).to.be.greaterThan(before! + 20_000)
  })

  it('a session whose row expired is signed out, however recent its last write on this instance', async () => {
    const { user, password } = await createAgent()
    const me = new Client()
    await me.login(user.email, password)
    expect((await me.get('/api/auth/me')).status).to.equal(200)
    await moveExpire(sidOf(me), -1)
    expect((await me.get('/api/auth/me')).status).to.equal(401)
  })

  it('the store writes the expiry again once the interval has passed, and a save always writes', async () => {
    const sequelize = app().db.sequelize
    const store = createSessionStore(
      {
        pgPromise: { any: async (text: string, params: unknown[]) => (await sequelize.query(text, { bind: params }))[0] },
        tableName: 'session',
        createTableIfMissing: false,
        pruneSessionInterval: false
      },
      200
    )
    const call = (f: (cb: (err?: unknown) => void) => void) => new Promise<void>((resolve, reject) => f((err) => (err ? reject(err) : resolve())))
    // As express-session hands it over: the session of a GET, its request kept out of sight.
    const sess = (minutes: number) =>
      Object.defineProperty({ cookie: { expires: new Date(Date.now() + minutes * 60_000), originalMaxAge: minutes * 60_000 } }, 'req', {
        value: { method: 'GET' }
      }) as unknown as session.SessionData
    await call((cb) => store.set('touch-test', sess(30), cb))
    const saved = await expireOf('touch-test')
    await call((cb) => store.touch!('touch-test', sess(31), cb))
    expect(await expireOf('touch-test')).to.equal(saved)
    await new Promise((r) => setTimeout(r, 250))
    await call((cb) => store.touch!('touch-test', sess(32), cb))
    expect(await expireOf('touch-test')).to.be.greaterThan(saved!)
    await call((cb) => store.set('touch-test', sess(40), cb))
    expect(await expireOf('touch-test')).to.be.greaterThan(saved! + 9 * 60_000)
  })
})
