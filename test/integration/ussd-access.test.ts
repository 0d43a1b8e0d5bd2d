import { expect } from 'chai'
import { createAgent } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'
import { AtPhone, ussdAgent } from '../helpers/ussd.ts'
import { auditCount } from '../helpers/ussd-screens.ts'

describe("USSD channel (Africa's Talking format)", () => {
  beforeEach(resetDb)

  describe('access', () => {
    it('refuses a number that is not on the whitelist when the whitelist is on, and admits it once listed', async () => {
      await ussdAgent({ phone: '0241110001' })
      await app().services.settings.update({ ussdWhitelistEnabled: true }, {})
      const refused = await new AtPhone('+233241110001').dial()
      expect(refused.status).to.equal(200)
      expect(refused.body).to.equal('END This number is not allowed to use this service.')
      expect(await app().db.models.UssdSession.count()).to.equal(0)

      // Stored as 0XXXXXXXXX; the gateway sends +233XXXXXXXXX: the same number.
      await app().db.models.UssdWhitelist.create({ phoneNumber: '0241110001', isActive: true })
      const ok = await new AtPhone('+233241110001').dial()
      expect(ok.con).to.equal(true)
      expect(ok.text).to.contain('Enter your 4-digit agent PIN')

      await app().db.models.UssdWhitelist.update({ isActive: false }, { where: { phoneNumber: '0241110001' } })
      expect((await new AtPhone('233241110001').dial()).end).to.equal(true)
    })

    it('refuses a number with no agent behind it', async () => {
      const hop = await new AtPhone('+233209999999').dial()
      expect(hop.body).to.equal('END No agent account uses this number. Register as an agent on our website first.')
    })

    it('refuses an agent who is not approved, one who has not paid, and one without a PIN', async () => {
      await ussdAgent({ phone: '0241110002', approved: false })
      await ussdAgent({ phone: '0241110003', approved: false, paymentStatus: 'PENDING' })
      await createAgent({ phone: '0241110004' })
      expect((await new AtPhone('+233241110002').dial()).body).to.equal('END Your agent account is awaiting approval (usually 24-48 hours).')
      expect((await new AtPhone('+233241110003').dial()).body).to.equal('END Your agent registration fee is not paid yet. Pay it in the agent portal.')
      expect((await new AtPhone('0241110004').dial()).body).to.match(/^END You have no USSD PIN yet/)
    })

    it('matches an agent stored as 233XXXXXXXXX when the gateway sends 0XXXXXXXXX', async () => {
      await ussdAgent({ phone: '233241110005' })
      const hop = await new AtPhone('0241110005').dial()
      expect(hop.con).to.equal(true)
    })

    it('locks USSD for the agent after 5 wrong PINs, across new session ids, and refuses even the right PIN until the lock ends', async () => {
      const { agent, pin } = await ussdAgent({ phone: '0241110006' })
      // Wrong PINs spread over three dials: the count is per agent, not per session.
      const first = new AtPhone('+233241110006')
      await first.dial()
      let hop = await first.send('1111')
      expect(hop.body).to.equal('CON Wrong PIN. 4 tries left.\nWelcome to Data Hub\nEnter your 4-digit agent PIN:')
      hop = await first.send('2222')
      expect(hop.text).to.contain('3 tries left')

      const second = new AtPhone('+233241110006')
      await second.dial()
      expect((await second.send('3333')).text).to.contain('2 tries left')
      expect((await second.send('abcd')).text).to.contain('PIN must be 4 digits') // not counted
      expect((await second.send('4444')).text).to.contain('1 try left')

      const third = new AtPhone('+233241110006')
      await third.dial()
      hop = await third.send('5555')
      expect(hop.end).to.equal(true)
      expect(hop.text).to.equal('Wrong PIN. USSD is locked for 30 minutes after too many wrong PINs.')

      // A new dial is refused at once, whatever the session id.
      const fourth = new AtPhone('+233241110006')
      hop = await fourth.dial()
      expect(hop.body).to.match(/^END Too many wrong PINs\. USSD is locked\. Try again in (29|30) min\.$/)

      // A session opened before the lock cannot use the right PIN either.
      const raced = new AtPhone('+233241110006')
      await app().db.models.Agent.update({ pinLockedUntil: null }, { where: { id: agent.id } })
      await raced.dial()
      await app().db.models.Agent.update({ pinLockedUntil: new Date(Date.now() + 10 * 60_000) }, { where: { id: agent.id } })
      hop = await raced.send(pin)
      expect(hop.end).to.equal(true)
      // The wait left on the lock, not a fresh lock's 30 minutes.
      expect(hop.text).to.match(/locked for (9|10) minutes/)

      expect(await auditCount('USSD_PIN_FAILED')).to.equal(4)
      expect(await auditCount('USSD_PIN_LOCKED')).to.equal(1)
      const logs = await app().db.models.AuditLog.findAll({ where: { action: ['USSD_PIN_FAILED', 'USSD_PIN_LOCKED'] } })
      const entries = logs.map((l) => ({ action: l.get('action'), severity: l.get('severity'), details: l.get('details') }))
      entries.sort((x, y) => (x.details as { failedAttempts: number }).failedAttempts - (y.details as { failedAttempts: number }).failedAttempts)
      expect(entries).to.deep.equal([
        ...[1, 2, 3, 4].map((n) => ({ action: 'USSD_PIN_FAILED', severity: 'MEDIUM', details: { channel: 'ussd', failedAttempts: n } })),
        { action: 'USSD_PIN_LOCKED', severity: 'HIGH', details: { channel: 'ussd', failedAttempts: 5, lockedMinutes: 30 } }
      ])
      for (const l of logs) {
        expect(JSON.stringify(l.get('details'))).not.to.match(/1111|2222|3333|4444|5555/)
        expect(l.get('userId')).to.equal(agent.userId)
        expect(l.get('resourceId')).to.equal(String(agent.id))
      }

      // The lock ends: the right PIN gets in and the counter starts again.
      await app().db.models.Agent.update({ pinLockedUntil: new Date(Date.now() - 1000) }, { where: { id: agent.id } })
      const fifth = new AtPhone('+233241110006')
      await fifth.dial()
      hop = await fifth.send(pin)
      expect(hop.con).to.equal(true)
      expect(hop.text).to.contain('1. Buy data')
      const row = await app().db.models.Agent.findByPk(agent.id)
      expect(row!.get('pinFailedAttempts')).to.equal(0)
      expect(row!.get('pinLockedUntil')).to.equal(null)
    })

    it('never keeps the PIN in the stored session state', async () => {
      const { pin } = await ussdAgent({ phone: '0241110007' })
      const phone = new AtPhone('+233241110007')
      await phone.dial()
      await phone.send(pin)
      await phone.send('1')
      const rows = await app().db.sequelize.query('SELECT state::text AS s FROM ussd_sessions', { type: 'SELECT' as any })
      expect(rows).to.have.length(1)
      expect((rows[0] as any).s).not.to.contain(pin)
    })

    it('refuses callers without the shared secret when one is configured', async () => {
      // The gate reads env at mount time, so a second router is built here with a secret.
      const { ussdRouter } = await import('../../ussd/router.ts')
      const express = (await import('express')).default
      const a = express()
      a.use(express.urlencoded({ extended: false }))
      a.use((req, _res, next) => (((req as any).log = app().services.deps.log), next()))
      a.use(
        '/ussd',
        ussdRouter(app().services, {
          env: { ...app().services.deps.env, USSD_SHARED_SECRET: 's3cret-value', USSD_ALLOWED_IPS: '10.0.0.0/8' },
          log: app().services.deps.log
        })
      )
      const server = a.listen(0, '127.0.0.1')
      await new Promise((r) => server.once('listening', r))
      const base = `http://127.0.0.1:${(server.address() as any).port}/ussd/africastalking`
      const body = new URLSearchParams({ sessionId: 'x1', phoneNumber: '+233241110008', serviceCode: '*920#', text: '' }).toString()
      const post = (q: string, headers: Record<string, string> = {}) =>
        fetch(base + q, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, body })
      try {
        const none = await post('')
        expect(none.status).to.equal(403)
        expect(await none.text()).to.equal('END Not allowed.')
        expect((await post('?secret=wrong')).status).to.equal(403)
        const viaQuery = await post('?secret=s3cret-value')
        expect(viaQuery.status).to.equal(200)
        expect(await viaQuery.text()).to.match(/^END No agent account/)
        expect((await post('', { 'x-ussd-secret': 's3cret-value' })).status).to.equal(200)
      } finally {
        server.close()
      }
    })

    it('refuses callers from addresses outside USSD_ALLOWED_IPS', async () => {
      const { ussdRouter } = await import('../../ussd/router.ts')
      const express = (await import('express')).default
      const a = express()
      a.use(express.urlencoded({ extended: false }))
      a.use((req, _res, next) => (((req as any).log = app().services.deps.log), next()))
      a.use('/ussd', ussdRouter(app().services, { env: { ...app().services.deps.env, USSD_ALLOWED_IPS: '196.201.214.0/24' }, log: app().services.deps.log }))
      const server = a.listen(0, '127.0.0.1')
      await new Promise((r) => server.once('listening', r))
      try {
        const res = await fetch(`http://127.0.0.1:${(server.address() as any).port}/ussd/africastalking`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ sessionId: 'x2', phoneNumber: '+233241110009', text: '' }).toString()
        })
        expect(res.status).to.equal(403)
        expect(await res.text()).to.equal('END Not allowed.')
      } finally {
        server.close()
      }
    })
    // In production with neither secret nor allowlist, anyone who could reach the
    // endpoint claimed any number. Now only loopback passes; a remote caller gets 403 and a log line.
    it('in production without secret or allowlist only loopback passes; secret OR allowlisted address passes', async () => {
      const { ussdRouter } = await import('../../ussd/router.ts')
      const express = (await import('express')).default
      const lines: string[] = []
      const base = app().services.deps.log
      const log = Object.assign(Object.create(base), { warn: (o: unknown, m?: string) => lines.push(`${JSON.stringify(o)} ${m ?? ''}`), child: () => log })
      async function serve(extra: Record<string, unknown>) {
        const a = express()
        a.set('trust proxy', 'loopback')
        a.use(express.urlencoded({ extended: false }))
        a.use((req, _res, next) => (((req as any).log = log), next()))
        a.use(
          '/ussd',
          ussdRouter(app().services, {
            env: { ...app().services.deps.env, NODE_ENV: 'production', USSD_SHARED_SECRET: undefined, USSD_ALLOWED_IPS: undefined, ...extra },
            log
          })
        )
        const server = a.listen(0, '127.0.0.1')
        await new Promise((r) => server.once('listening', r))
        const url = `http://127.0.0.1:${(server.address() as any).port}/ussd/africastalking`
        const post = (from: string | null, q = '') =>
          fetch(url + q, {
            method: 'POST',
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...(from ? { 'X-Forwarded-For': from } : {}) },
            body: new URLSearchParams({ sessionId: `s${Math.random()}`, phoneNumber: '+233241110010', serviceCode: '*920#', text: '' }).toString()
          })
        return { post, close: () => server.close() }
      }
      const bare = await serve({})
      try {
        const remote = await bare.post('41.66.1.2')
        expect(remote.status).to.equal(403)
        expect(await remote.text()).to.equal('END Not allowed.')
        expect(lines.some((l) => l.includes('41.66.1.2') && l.includes('USSD request refused'))).to.equal(true)
        expect((await bare.post(null)).status).to.equal(200)
      } finally {
        bare.close()
      }
      const either = await serve({ USSD_SHARED_SECRET: 'at-secret-123', USSD_ALLOWED_IPS: '196.201.214.0/24' })
      try {
        expect((await either.post('41.66.1.2')).status).to.equal(403)
        expect((await either.post('41.66.1.2', '?secret=at-secret-123')).status).to.equal(200)
        expect((await either.post('196.201.214.7')).status).to.equal(200)
        expect((await either.post(null)).status).to.equal(403)
      } finally {
        either.close()
      }
    })
  })
})
