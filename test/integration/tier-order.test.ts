import { expect } from 'chai'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { agentIn, credit, q, seedTiers, tierIds } from '../helpers/tiers.ts'

// The admin reorders tiers (ADR 0041): positions stay 0..n-1, the move is audited, prices follow the new order.
describe('reordering tiers', () => {
  let pkg: { id: number }
  beforeEach(async () => {
    await resetDb()
    await seedTiers()
    await app().services.settings.update({ deliveryMode: 'automatic' }, {})
    pkg = (await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 600, priceAgentPesewas: 500 })) as { id: number }
  })

  const names = async () =>
    (await q<{ name: string; position: number }>('SELECT name, position FROM tiers ORDER BY position')).map((r) => `${r.position}:${r.name}`)

  it('an empty tier price falls back to the tier above in the new order, for the grid and for an order placed over HTTP', async function () {
    this.timeout(30_000)
    const t = await tierIds()
    const admin = await adminClient()
    // Super agent 4.80, Dealer empty, Super dealer 4.40: the Dealer pays the Super agent's 4.80
    expect(
      (
        await admin.put(`/api/admin/tiers/prices/${pkg.id}`, {
          prices: [
            { tierId: t['Super agent'], price: 4.8 },
            { tierId: t['Super dealer'], price: 4.4 }
          ]
        })
      ).status
    ).to.equal(200)
    const dealer = await agentIn(t.Dealer, '0241810001')
    await credit(dealer.agent.id, 20)
    const before = await dealer.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(before.body.order.amount).to.equal(4.8)

    // Dealer up above Super agent: Agent, Dealer, Super agent, Super dealer; the Dealer now falls back to the Agent tier's 5.00
    const moved = await admin.post(`/api/admin/tiers/${t.Dealer}/move`, { direction: 'up' })
    expect(moved.status, moved.text).to.equal(200)
    expect((moved.body.tiers as { name: string; position: number }[]).map((x) => [x.name, x.position])).to.deep.equal([
      ['Agent', 0],
      ['Dealer', 1],
      ['Super agent', 2],
      ['Super dealer', 3]
    ])
    const grid = ((await admin.get('/api/admin/tiers/prices')).body.packages as { id: number; prices: { effective: number }[] }[]).find((p) => p.id === pkg.id)!
    expect(grid.prices.map((p) => p.effective)).to.deep.equal([5, 5, 4.8, 4.4])
    const after = await dealer.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(after.status, after.text).to.equal(201)
    expect(after.body.order.amount).to.equal(5)

    const [audit] = await q(`SELECT details FROM audit_logs WHERE action = 'TIER_MOVED'`)
    expect(audit.details).to.include({ tierId: t.Dealer, direction: 'up', from: 2, to: 1 })
  })

  it('refuses moving past either end, a bad direction, an unknown tier and a non-admin with a clear 4xx', async () => {
    const t = await tierIds()
    const admin = await adminClient()
    const first = await admin.post(`/api/admin/tiers/${t.Agent}/move`, { direction: 'up' })
    expect([first.status, first.body.error]).to.deep.equal([400, 'Agent is already the first tier'])
    const last = await admin.post(`/api/admin/tiers/${t['Super dealer']}/move`, { direction: 'down' })
    expect([last.status, last.body.error]).to.deep.equal([400, 'Super dealer is already the last tier'])
    const bad = await admin.post(`/api/admin/tiers/${t.Agent}/move`, { direction: 'sideways' })
    expect([bad.status, bad.body.error]).to.deep.equal([400, 'direction must be up or down'])
    expect((await admin.post('/api/admin/tiers/999999/move', { direction: 'up' })).status).to.equal(404)
    expect((await admin.post('/api/admin/tiers/abc/move', { direction: 'up' })).status).to.equal(400)
    expect((await new Client().post(`/api/admin/tiers/${t.Dealer}/move`, { direction: 'up' })).status).to.equal(401)
    expect(await names()).to.deep.equal(['0:Agent', '1:Super agent', '2:Dealer', '3:Super dealer'])
    expect(await q(`SELECT id FROM audit_logs WHERE action = 'TIER_MOVED'`)).to.have.length(0)
  })

  it('5 concurrent moves up apply one after the other: positions dense and unique, no move lost', async function () {
    this.timeout(30_000)
    const t = await tierIds()
    const admin = await adminClient()
    // In turn: Super dealer goes 3 -> 2 -> 1 -> 0, then twice it is already first.
    const moves = await Promise.all(Array.from({ length: 5 }, () => admin.post(`/api/admin/tiers/${t['Super dealer']}/move`, { direction: 'up' })))
    expect(moves.map((m) => m.status).sort(), moves.map((m) => m.text).join('\n')).to.deep.equal([200, 200, 200, 400, 400])
    for (const m of moves.filter((x) => x.status === 400)) expect(m.body.error).to.equal('Super dealer is already the first tier')
    expect(await names()).to.deep.equal(['0:Super dealer', '1:Agent', '2:Super agent', '3:Dealer'])
    expect(await q(`SELECT id FROM audit_logs WHERE action = 'TIER_MOVED'`)).to.have.length(3)
  })
})
