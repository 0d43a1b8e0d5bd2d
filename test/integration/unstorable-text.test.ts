import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// A lone UTF-16 surrogate ("\ud800" in JSON) has no UTF-8 form, so PostgreSQL refuses it in jsonb (an
// audit entry's details) and used to answer 500 from deep inside a service. One rule at the edge
// refuses it with 400 for every route, whatever the field, and nothing is written.
describe('text PostgreSQL cannot store is refused at the edge', function () {
  this.timeout(30_000)
  const LONE = 'ab\ud800cd'
  const count = async (table: string) =>
    (await app().db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`, { type: QueryTypes.SELECT }))[0]!.n
  const TABLES = ['audit_logs', 'api_keys', 'wallet_entries', 'shops', 'orders', 'payments', 'ussd_sessions']
  const snapshot = async () => Object.fromEntries(await Promise.all(TABLES.map(async (t) => [t, await count(t)])))

  beforeEach(resetDb)

  it('a lone surrogate in an API key name, a wallet adjustment reason, a shop name, a reseller API order, a USSD hop and a webhook answers 400 and writes nothing', async () => {
    const admin = await adminClient()
    const a = await createAgent()
    const agent = new Client()
    expect((await agent.login(a.user.email, a.password)).status).to.equal(200)
    const key = await agent.post('/api/reseller/keys', { name: 'bot' })
    expect(key.status).to.equal(201)
    const api = new Client()
    api.bearer = key.body.key

    const calls: Array<[string, () => Promise<{ status: number; body: any }>]> = [
      ['API key name', () => agent.post('/api/reseller/keys', { name: LONE })],
      ['wallet adjustment reason', () => admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: 5, direction: 'CREDIT', reason: LONE })],
      ['shop name', () => agent.put('/api/shops/mine', { name: LONE, slug: 'my-shop' })],
      ['a key, not a value', () => agent.put('/api/shops/mine', { name: 'Shop', [LONE]: 1 })],
      ['nested in an array', () => admin.put('/api/settings', { siteName: 'Hub', extra: [{ note: LONE }] })],
      ['reseller API order', () => api.post('/api/v1/orders', { packageId: 1, recipientNumber: '0241234567', note: LONE }, { 'Idempotency-Key': 'k-1' })],
      [
        'USSD hop (JSON gateway)',
        () => new Client().post('/ussd/arkesel', { sessionID: 's1', userID: 'u', msisdn: '233241234567', network: 'MTN', newSession: true, userData: LONE })
      ],
      ['payment webhook', () => new Client().post('/api/webhooks/paystack', { event: 'charge.success', data: { reference: LONE } })]
    ]
    const before = await snapshot()
    for (const [what, call] of calls) {
      const r = await call()
      expect(r.status, what).to.equal(400)
      expect(r.body.error, what).to.match(/lone UTF-16 surrogate/)
    }
    expect(await snapshot()).to.deep.equal(before)
    // A surrogate pair (an emoji) is well-formed text and still goes through.
    expect((await agent.post('/api/reseller/keys', { name: 'bot \ud83d\ude42' })).status).to.equal(201)
  })
})
