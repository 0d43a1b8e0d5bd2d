import { expect } from 'chai'
import { connect } from '../../models/db.ts'
import { migrate } from '../../models/migrate.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

async function bootAnother(): Promise<Running> {
  const { sequelize, models } = connect(app().db.url)
  return boot({ env: { ...testEnv(), PORT: 0 }, log: createLogger('silent'), db: { sequelize, models, url: app().db.url, close: () => sequelize.close() } })
}

describe('app instances on one database', function () {
  this.timeout(30_000)
  let second: Running
  let third: Running
  before(async () => {
    second = await bootAnother()
    third = await bootAnother()
  })
  after(async () => Promise.all([second?.stop(), third?.stop()]))
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

  it('see a settings change made on another at once (NOTIFY), well within the cache lifetime', async () => {
    await second.services.settings.get() // warm the second instance's cache
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { siteName: 'Changed Elsewhere' })).status).to.equal(200)
    const started = Date.now()
    let seen = ''
    while (Date.now() - started < 1000) {
      seen = (await new Client(second.url).get('/api/settings')).body.siteName
      if (seen === 'Changed Elsewhere') break
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(seen).to.equal('Changed Elsewhere')
    expect(Date.now() - started).to.be.lessThan(1000) // the TTL fallback would take 5 s
  })

  it('refuse the very next purchase on every other instance once an admin closes the platform', async () => {
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const buy = (url: string) =>
      new Client(url).post('/api/orders', { packageId: pkg, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
    // Both others hold a copy that says open, and sell.
    expect((await buy(second.url)).status).to.be.oneOf([200, 201])
    expect((await buy(third.url)).status).to.be.oneOf([200, 201])
    const admin = await adminClient()
    const before = (await admin.get('/api/settings')).body
    expect((await admin.put('/api/settings', { ...before, platformOpen: false })).status).to.equal(200)
    for (const url of [second.url, third.url]) {
      const res = await buy(url)
      expect(res.status).to.equal(403)
      expect(res.body.error ?? res.body.message).to.equal('Purchases are temporarily disabled')
    }
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
      expect([ranA.length, ranB.length].sort()).to.deep.equal([0, ranA.length || ranB.length])
      expect(ranA.length + ranB.length).to.be.greaterThan(0)
    } finally {
      await a.sequelize.close()
      await b.sequelize.close()
      await app().db.sequelize.query(`DROP DATABASE IF EXISTS ${name}`)
    }
  })
})
