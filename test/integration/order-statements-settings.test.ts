import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsOf, fundedAgent } from '../helpers/order-statements.ts'

describe('placing an order: the settings read once, from the cache (ADR 0046)', () => {
  beforeEach(resetDb)

  it('while the settings listener is up, the cached copy is kept past the 5 s fallback: an order later on reads no settings (ADR 0053)', async function () {
    this.timeout(30_000)
    const pkg = await createPackage()
    const visitor = new Client()
    await visitor.get('/api/settings')
    expect(app().services.connections.isUp('datahub-settings-listener')).to.equal(true)
    await new Promise((r) => setTimeout(r, 5200))
    const { out, sent } = await statementsOf(() =>
      visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(
      sent.filter((s) => /^SELECT [^(]*FROM settings\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // A save still reaches the copy at once (its NOTIFY): the next visitor sees the platform closed.
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { platformOpen: false })).status).to.be.oneOf([200, 204])
    await new Promise((r) => setTimeout(r, 300))
    expect((await new Client().get('/api/settings')).body.platformOpen).to.equal(false)
  })

  it('a platform closed by a save this instance has not heard of yet refuses the very next order, visitor or wallet, and keeps nothing', async () => {
    const { pkg, a, portal } = await fundedAgent()
    const visitor = new Client()
    // The cached copy says open...
    expect((await visitor.get('/api/settings')).body.platformOpen).to.equal(true)
    // ...and a save that sends no notice closes the platform (another instance's, its NOTIFY not yet here).
    await app().db.sequelize.query(`UPDATE settings SET data = jsonb_set(data, '{platformOpen}', 'false') WHERE id = 1 RETURNING id`, {
      type: QueryTypes.SELECT
    })
    const bought = await visitor.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(bought.status, bought.text).to.equal(403)
    expect(bought.body.error).to.equal('Purchases are temporarily disabled')
    const paid = await portal.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112233', payFrom: 'wallet' })
    expect(paid.status, paid.text).to.equal(403)
    const [n] = await app().db.sequelize.query<{ orders: string; payments: string; entries: string }>(
      `SELECT (SELECT count(*) FROM orders) AS orders, (SELECT count(*) FROM payments) AS payments,
              (SELECT count(*) FROM wallet_entries WHERE type = 'ORDER') AS entries`,
      { type: QueryTypes.SELECT }
    )
    expect(n).to.deep.equal({ orders: '0', payments: '0', entries: '0' })
  })
})
