import { expect } from 'chai'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { ussdAgent } from '../helpers/ussd.ts'

describe("USSD channel (Africa's Talking format)", () => {
  beforeEach(resetDb)

  describe('the adapter seam and the simulator hop', () => {
    async function arkesel(body: Record<string, unknown>) {
      const res = await fetch(`${app().url}/ussd/arkesel`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as any }
    }

    it('speaks an Arkesel-style JSON gateway (last input only, newSession flag) through the same menu', async () => {
      const { pin } = await ussdAgent({ phone: '0241160001' })
      const base = { sessionID: 'ark-123', userID: 'DATAHUB', msisdn: '233241160001', network: 'MTN' }
      let r = await arkesel({ ...base, newSession: true, userData: '*920*44#' })
      expect(r.status).to.equal(200)
      expect(r.body).to.deep.equal({
        sessionID: 'ark-123',
        userID: 'DATAHUB',
        msisdn: '233241160001',
        message: 'Welcome to Data Hub\nEnter your 4-digit agent PIN:',
        continueSession: true
      })
      r = await arkesel({ ...base, newSession: false, userData: pin })
      expect(r.body.message).to.match(/^Data Hub\n1\. Buy data/)
      r = await arkesel({ ...base, newSession: false, userData: '1' })
      expect(r.body.message).to.match(/^Buy data: choose network/)
      r = await arkesel({ ...base, newSession: false, userData: '00' })
      expect(r.body.message).to.match(/^Data Hub\n/)
      r = await arkesel({ ...base, newSession: false, userData: '0' })
      expect(r.body).to.include({ message: 'Thank you for using Data Hub.', continueSession: false })
      // A hop for a dial we no longer know (idled out and purged) ends clearly.
      r = await arkesel({ ...base, newSession: false, userData: '1' })
      expect(r.body).to.include({ message: 'Session timed out. Please dial again.', continueSession: false })
      const bad = await arkesel({ sessionID: 'x' })
      expect(bad.status).to.equal(400)
      expect(bad.body.continueSession).to.equal(false)
      expect((await fetch(`${app().url}/ussd/nosuchgateway`, { method: 'POST' })).status).to.equal(404)
    })

    it('lets admins play the phone through /api/ussd-simulator/hop, and nobody else outside development', async () => {
      await ussdAgent({ phone: '0241160002' })
      const hop = { sessionId: 'sim-test-0001', phoneNumber: '0241160002', serviceCode: '*920*44#', text: '' }
      expect((await new Client().post('/api/ussd-simulator/hop', hop)).status).to.equal(403)
      const { user, password } = await createAgent({ phone: '0241160003' })
      const agentClient = new Client()
      await agentClient.login(user.email, password)
      expect((await agentClient.post('/api/ussd-simulator/hop', hop)).status).to.equal(403)

      const admin = await adminClient()
      const r = await admin.post('/api/ussd-simulator/hop', hop)
      expect(r.status).to.equal(200)
      expect(r.body).to.include({ status: 200, end: false })
      expect(r.body.response).to.equal('CON Welcome to Data Hub\nEnter your 4-digit agent PIN:')
      const invalid = await admin.post('/api/ussd-simulator/hop', { ...hop, phoneNumber: 'abc' })
      expect(invalid.status).to.equal(400)
      expect(invalid.body.error).to.equal('Enter a valid phone number')
    })
  })
})
