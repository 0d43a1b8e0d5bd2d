import { expect } from 'chai'
import { createAgent, createOrder, createUser } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

/** The agent dashboard's figures, read in one aggregate statement beside the latest orders. */
describe('agent dashboard summary', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it("counts, money and the split per network cover the agent's own orders only", async () => {
    const { user, agent } = await createAgent()
    const other = await createUser()
    const mine = { agentId: agent.id, userId: user.id }
    await createOrder({ ...mine, network: 'MTN', paymentStatus: 'SUCCESS', amountPesewas: 450, dataSizeMb: 1024 })
    await createOrder({ ...mine, network: 'MTN', paymentStatus: 'PENDING', amountPesewas: 450 })
    await createOrder({ ...mine, network: 'TELECEL', paymentStatus: 'FAILED', amountPesewas: 300 })
    await createOrder({ ...mine, network: 'AIRTELTIGO', paymentStatus: 'SUCCESS', amountPesewas: 480, dataSizeMb: 2048 })
    await createOrder({ userId: other.id, network: 'MTN', paymentStatus: 'SUCCESS', amountPesewas: 999 })
    const actor = await app().services.auth.loadActor(user.id)
    const s = await app().services.agentOrders.summary({ user: actor! })
    expect(s).to.include({ total: 4, success: 2, pending: 1, failed: 1, delivered: 0, totalSpent: 9.3, dataMB: 3072, successRate: 50 })
    expect(s.byNetwork).to.deep.equal({ MTN: 2, TELECEL: 1, AIRTELTIGO: 1 })
    expect(s.recent).to.have.length(4)
  })

  it('an agent without orders sees zeros for every network', async () => {
    const { user } = await createAgent()
    const s = await app().services.agentOrders.summary({ user: (await app().services.auth.loadActor(user.id))! })
    expect(s).to.include({ total: 0, totalSpent: 0, dataMB: 0 })
    expect(s.byNetwork).to.deep.equal({ MTN: 0, TELECEL: 0, AIRTELTIGO: 0 })
    expect(s.recent).to.deep.equal([])
  })
})
