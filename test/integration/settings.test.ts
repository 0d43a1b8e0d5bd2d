import { expect } from 'chai'
import { Client, adminClient } from '../helpers/http.ts'
import { createAgent } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'

describe('settings API', () => {
  beforeEach(resetDb)

  it('gives everyone the public fields with the spec defaults, and admins all fields', async () => {
    const pub = await new Client().get('/api/settings')
    expect(pub.status).to.equal(200)
    expect(pub.body).to.include({
      siteName: 'Data Hub',
      platformOpen: true,
      agentRegistrationFee: 0,
      afaRegistrationFee: 0,
      paymentGateway: 'ussd',
      visitorMessageType: 'INFO'
    })
    expect(pub.body).to.not.have.property('commissionPercentage')
    expect(pub.body).to.not.have.property('smsOrderCreatedUser')
    const admin = await (await adminClient()).get('/api/settings')
    expect(admin.body).to.include({ commissionEnabled: true, commissionType: 'PERCENTAGE', commissionPercentage: 10, ussdWhitelistEnabled: false })
  })

  it('refuses changes from visitors (401) and agents (403), changing nothing', async () => {
    expect((await new Client().put('/api/settings', { platformOpen: false })).status).to.equal(401)
    const { user, password } = await createAgent()
    const agent = new Client()
    await agent.login(user.email, password)
    const res = await agent.put('/api/settings', { platformOpen: false, siteName: 'Hacked' })
    expect(res.status).to.equal(403)
    app().services.settings.invalidate()
    const after = await new Client().get('/api/settings')
    expect(after.body).to.include({ platformOpen: true, siteName: 'Data Hub' })
  })

  it('saves a whole settings object, keeps fees as pesewas inside, and audits SETTINGS_UPDATED', async () => {
    const admin = await adminClient()
    const current = (await admin.get('/api/settings')).body
    const res = await admin.put('/api/settings', { ...current, id: 1, agentRegistrationFee: 25.5, afaRegistrationFee: '10.10', siteName: 'Kwame Data' })
    expect(res.status).to.equal(200)
    expect(res.body).to.include({ agentRegistrationFee: 25.5, afaRegistrationFee: 10.1, siteName: 'Kwame Data' })
    const row = (await app().db.models.Settings.findByPk(1))!.get('data') as Record<string, unknown>
    expect(row.agentRegistrationFeePesewas).to.equal(2550)
    expect(row.afaRegistrationFeePesewas).to.equal(1010)
    const audit = await app().db.models.AuditLog.findAll({ where: { action: 'SETTINGS_UPDATED' }, raw: true })
    expect(audit).to.have.length(1)
    expect((audit[0] as any).details.changed).to.include.members(['agentRegistrationFee', 'siteName'])
  })

  it('accepts only ussdWhitelistEnabled on its own', async () => {
    const admin = await adminClient()
    const res = await admin.put('/api/settings', { ussdWhitelistEnabled: true })
    expect(res.status).to.equal(200)
    expect(res.body).to.include({ ussdWhitelistEnabled: true, siteName: 'Data Hub' })
  })

  it('rejects invalid values with a 400 and changes nothing', async () => {
    const admin = await adminClient()
    for (const bad of [
      { commissionPercentage: 150 },
      { agentRegistrationFee: -1 },
      { paymentGateway: 'bitcoin' },
      { platformOpen: 'maybe' },
      { visitorMessageType: 'LOUD' },
      { siteName: '' }
    ]) {
      const res = await admin.put('/api/settings', bad)
      expect(res.status, JSON.stringify(bad)).to.equal(400)
      expect(res.body.error).to.be.a('string')
    }
    app().services.settings.invalidate()
    const after = (await admin.get('/api/settings')).body
    expect(after).to.include({ commissionPercentage: 10, agentRegistrationFee: 0, paymentGateway: 'ussd', platformOpen: true })
  })
})
