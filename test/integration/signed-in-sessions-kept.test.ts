import { expect } from 'chai'
import type { Running } from '../../server/index.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

// The session and its user are kept in memory between loads on each instance (ADR 0048, amendment). Each test
// first reads on both instances so both keep them, then changes something on one instance and expects the very next
// request on the other to see it: the kept copies must be dropped by the notices, never served past a change.
describe('signed-in session and user kept between loads, dropped on every instance', function () {
  this.timeout(30_000)
  let second: Running | undefined
  before(async () => {
    second = await bootInstance()
  })
  after(async () => second?.stop())
  beforeEach(resetDb)

  /** The same cookies sent to the instance at `url` (sessions live in PostgreSQL); a copy, so a sign-out's cleared cookie stays behind. */
  const on = (url: string, c: Client) => {
    const there = new Client(url)
    there.cookies = new Map(c.cookies)
    there.csrf = c.csrf
    return there
  }
  const elsewhere = (c: Client) => on(second!.url, c)
  /** Reads enough times that each instance has its own first touch behind it and keeps what it read. */
  const readOnBoth = async (...clients: Client[]) => {
    for (let i = 0; i < 3; i++) for (const c of clients) expect((await c.get('/api/auth/me')).status).to.equal(200)
  }
  const status = async (c: Client, path: string) => (await c.get(path, browser)).status
  /** An agent signed in on the first instance, its cookie sent to both, each instance keeping the session and the user. */
  const agentOnBoth = async (over: Parameters<typeof factories.createAgent>[0] = {}) => {
    const made = await factories.createAgent(over)
    const here = new Client()
    expect((await here.login(made.user.email, made.password)).status).to.equal(200)
    const there = elsewhere(here)
    await readOnBoth(here, there)
    return { ...made, here, there }
  }

  it('a sign-out on one instance signs the same cookie out on the other at its next request', async () => {
    const { here, there } = await agentOnBoth()
    expect((await here.post('/api/auth/logout', {})).status).to.equal(200)
    expect((await there.get('/api/auth/me')).status).to.equal(401)
    expect(await status(there, '/agent/dashboard')).to.not.equal(200)
  })

  it("an admin's role change on one instance applies on the other at once, on the API and the kept overview", async () => {
    const other = await factories.createUser({ role: 'ADMIN', email: 'second.admin@test.local' })
    const there = new Client(second!.url)
    expect((await there.login(other.email, other.password)).status).to.equal(200)
    const here = elsewhere(there)
    // The overview is kept for this session on both instances, and the user with it.
    for (let i = 0; i < 3; i++) for (const c of [there, here]) expect(await status(c, '/admin/overview')).to.equal(200)
    await readOnBoth(there, here)

    const admin = await adminClient()
    expect((await admin.patch(`/api/admin/users/${other.id}/role`, { role: 'PUBLIC' })).status).to.equal(200)
    for (const c of [there, here]) {
      expect((await c.get('/api/auth/me')).body.user.role).to.equal('PUBLIC')
      expect((await c.get('/api/admin/users')).status).to.equal(403)
      expect(await status(c, '/admin/overview')).to.not.equal(200)
    }
  })

  it("an agent's approval on one instance shows in the signed-in user on the other at once", async () => {
    const { agent, here, there } = await agentOnBoth({ approved: false })
    expect((await there.get('/api/auth/me')).body.agent).to.include({ approved: false })

    expect((await (await adminClient()).patch(`/api/agents/${agent.id}/approve`, {})).status).to.equal(200)
    for (const c of [here, there]) expect((await c.get('/api/auth/me')).body.agent).to.include({ id: agent.id, approved: true })
  })

  it('a user removed from the database (the product has no deactivation; an operator can delete) is refused on both instances at once', async () => {
    const { user, here, there } = await agentOnBoth()
    await app().db.sequelize.query('DELETE FROM users WHERE id = :id', { replacements: { id: user.id } })
    for (const c of [here, there]) {
      expect((await c.get('/api/auth/me')).status).to.equal(401)
      expect(await status(c, '/agent/dashboard')).to.not.equal(200)
    }
  })

  it("an admin's password reset ends the user's sessions on both instances at once", async () => {
    const { user, password } = await factories.createAgent()
    const onA = new Client()
    expect((await onA.login(user.email, password)).status).to.equal(200)
    const onB = new Client(second!.url)
    expect((await onB.login(user.email, password)).status).to.equal(200)
    const sessions = [onA, elsewhere(onA), onB, on(app().url, onB)]
    await readOnBoth(...sessions)

    const admin = await adminClient(second!.url)
    expect((await admin.post(`/api/admin/users/${user.id}/password-reset`)).status).to.equal(200)
    for (const c of sessions) expect((await c.get('/api/auth/me')).status).to.equal(401)
  })

  it('a session whose row has expired is refused, though this instance kept it', async () => {
    const { user, password } = await factories.createAgent()
    const me = new Client()
    expect((await me.login(user.email, password)).status).to.equal(200)
    const sid = decodeURIComponent(me.cookies.get('datahub.sid')!).slice(2).split('.')[0]!
    // The row ends in a second and a half. Written with the triggers quiet, as time passing is: no notice follows.
    await app().db.sequelize.transaction(async (t) => {
      await app().db.sequelize.query('SET LOCAL session_replication_role = replica', { transaction: t })
      await app().db.sequelize.query(`UPDATE session SET expire = now() + interval '1.5 seconds' WHERE sid = :sid`, { replacements: { sid }, transaction: t })
    })
    // Read, and kept: within a minute of the sign-in a read does not touch the row (ADR 0043).
    for (let i = 0; i < 2; i++) expect((await me.get('/api/auth/me')).status).to.equal(200)
    await new Promise((r) => setTimeout(r, 2000))
    expect((await me.get('/api/auth/me')).status).to.equal(401)
  })
})
