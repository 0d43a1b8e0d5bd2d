import { expect } from 'chai'
import { connect } from '../../models/db.ts'
import { migrate } from '../../models/migrate.ts'
import { boot, type Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

describe('two app instances on one database', function () {
  this.timeout(30_000)
  let second: Running
  before(async () => {
    const { sequelize, models } = connect(app().db.url)
    second = await boot({ env: { ...testEnv(), PORT: 0 }, log: createLogger('silent'), db: { sequelize, models, url: app().db.url, close: () => sequelize.close() } })
  })
  after(async () => second?.stop())
  beforeEach(resetDb)

  it('share sessions: signed in on one, recognised by the other', async () => {
    const a = await adminClient()
    const b = new Client(second.url)
    b.cookies = a.cookies
    b.csrf = a.csrf
    const me = await b.get('/api/auth/me')
    expect(me.status).to.equal(200)
    expect(me.body.user.role).to.equal('ADMIN')
  })

  it('see a settings change made on the other within the cache lifetime', async () => {
    await second.services.settings.get() // warm the second instance's cache
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { siteName: 'Changed Elsewhere' })).status).to.equal(200)
    await new Promise((r) => setTimeout(r, 5200))
    const seen = await new Client(second.url).get('/api/settings')
    expect(seen.body.siteName).to.equal('Changed Elsewhere')
  })

  it('starting at once, migrate once: the advisory lock serialises them', async () => {
    const name = `race_${process.pid}`
    await app().db.sequelize.query(`DROP DATABASE IF EXISTS ${name}`)
    await app().db.sequelize.query(`CREATE DATABASE ${name}`)
    const url = app().db.url.replace(/\/[^/]+$/, `/${name}`)
    const a = connect(url)
    const b = connect(url)
    try {
      const [ranA, ranB] = await Promise.all([migrate(a.sequelize), migrate(b.sequelize)])
      expect([ranA.length, ranB.length].sort()).to.deep.equal([0, (ranA.length || ranB.length)])
      expect(ranA.length + ranB.length).to.be.greaterThan(0)
    } finally {
      await a.sequelize.close()
      await b.sequelize.close()
      await app().db.sequelize.query(`DROP DATABASE IF EXISTS ${name}`)
    }
  })
})
