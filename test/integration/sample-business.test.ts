import { expect } from 'chai'
import { createLogger } from '../../server/lib/logger.ts'
import { SAMPLE_AGENT_FEE_PESEWAS, seedDefaults } from '../../server/services/seed/index.ts'
import { createAgent } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'

/** What a real first start seeds (the test reset seeds no agent prices and no fee). */
async function firstStartSeed() {
  const { db, services } = app()
  await db.sequelize.query('TRUNCATE packages, settings RESTART IDENTITY CASCADE')
  services.settings.invalidate()
  services.packages.invalidate()
  await seedDefaults(db.models, services, { adminEmail: ADMIN.email, adminPassword: ADMIN.password, log: createLogger('silent'), sampleBusiness: true })
}

describe('the sample shop of a fresh machine', () => {
  beforeEach(resetDb)
  after(resetDb)

  it('seeds agent prices under every public price and an agent registration fee', async () => {
    await firstStartSeed()
    const packages = (await new Client().get('/api/packages')).body as { priceUser: number; priceAgent: number | null }[]
    expect(packages).to.have.length(9)
    for (const p of packages) {
      expect(p.priceAgent, JSON.stringify(p)).to.be.a('number')
      expect(p.priceAgent!).to.be.below(p.priceUser)
      // A vendor's margin, not a giveaway: within 20% of the public price.
      expect(p.priceAgent!).to.be.at.least(p.priceUser * 0.8)
    }
    expect((await new Client().get('/api/settings')).body.agentRegistrationFee).to.equal(SAMPLE_AGENT_FEE_PESEWAS / 100)
  })

  it("an approved agent's price list shows each bundle below its regular price", async () => {
    await firstStartSeed()
    const { user, password } = await createAgent()
    const agent = new Client()
    expect((await agent.login(user.email, password)).status).to.equal(200)
    const page = await agent.get('/agent/packages', { Accept: 'text/html' })
    expect(page.status).to.equal(200)
    expect(page.text).to.include('Save up to')
    // Regular GH₵5.00 struck through, the agent's GH₵4.50, and the GH₵0.50 saved on MTN 1GB.
    expect(page.text).to.match(
      /<span class="strike">GH₵5\.00<\/span><\/td><td class="has-text-weight-bold">GH₵4\.50<\/td><td class="has-text-success">GH₵0\.50<\/td>/
    )
  })

  it('the test reset keeps agents at the public price, as the other tests expect', async () => {
    const packages = (await new Client().get('/api/packages')).body as { priceAgent: number | null }[]
    expect(packages.map((p) => p.priceAgent)).to.deep.equal(Array(9).fill(null))
    expect((await new Client().get('/api/settings')).body.agentRegistrationFee).to.equal(0)
  })
})
