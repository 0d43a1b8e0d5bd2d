import { expect } from 'chai'
import { createPackage } from '../helpers/factories.ts'
import { adminClient } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'
import { agentIn, seedTiers, tierIds } from '../helpers/tiers.ts'

// The two reads no other test asks for: an admin's view of an agent's place in the tree, a sub-agent's of its parent.
describe('sub-agents: the tree and the parent', () => {
  beforeEach(async () => {
    await resetDb()
    await seedTiers()
  })

  it('the admin sees an agent tree from the parent and from a sub-agent; a sub-agent sees its parent and its prices', async () => {
    const pkg = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 600, priceAgentPesewas: 500 })
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241660001')
    const sub = await agentIn(t.Agent, '0241660002', dealer.agent.id)
    const admin = await adminClient()

    const fromSub = await admin.get(`/api/admin/tiers/agents/${sub.agent.id}/tree`)
    expect(fromSub.status, fromSub.text).to.equal(200)
    expect(fromSub.body.agent).to.deep.equal({ id: sub.agent.id, name: sub.agent.name })
    expect(fromSub.body.root).to.deep.equal({ id: dealer.agent.id, name: dealer.agent.name })
    expect(fromSub.body.subAgents.map((s: any) => [s.id, s.sales, s.salesAmount, s.earned])).to.deep.equal([[sub.agent.id, 0, 0, 0]])
    const fromParent = await admin.get(`/api/admin/tiers/agents/${dealer.agent.id}/tree`)
    expect(fromParent.body.root).to.deep.equal({ id: dealer.agent.id, name: dealer.agent.name })
    expect((await admin.get('/api/admin/tiers/agents/999999/tree')).status).to.equal(404)

    const parent = await sub.c.get('/api/sub-agents/parent')
    expect(parent.status, parent.text).to.equal(200)
    expect(parent.body.parent).to.deep.equal({ name: dealer.agent.name, phone: dealer.agent.phone })
    expect(parent.body.prices.find((p: any) => p.packageId === pkg.id)).to.include({ price: 5 })
    const none = await dealer.c.get('/api/sub-agents/parent')
    expect(none.body).to.deep.equal({ parent: null, prices: [] })
  })
})
