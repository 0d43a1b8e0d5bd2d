import { expect } from 'chai'
import { createAgent, createOrder, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { AtPhone, atHop, ussdAgent } from '../helpers/ussd.ts'

const LIMIT = 182

function expectFits(hop: { body: string }) {
  expect(hop.body.length, `screen too long (${hop.body.length}): ${hop.body}`).to.be.at.most(LIMIT)
}

async function auditCount(action: string) {
  return app().db.models.AuditLog.count({ where: { action } })
}

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

  describe('menu', () => {
    // The seeded sample bundles are replaced by each test's own.
    beforeEach(() => app().db.models.Package.destroy({ where: {} }))

    async function signedIn(phoneNumber = '0241120001') {
      const a = await ussdAgent({ phone: phoneNumber })
      const phone = new AtPhone(`+233${phoneNumber.slice(1)}`)
      await phone.dial()
      const main = await phone.send(a.pin)
      return { ...a, phone, main }
    }

    it('shows the main menu after the PIN, and every screen fits 182 characters', async () => {
      for (let i = 0; i < 12; i++) await createPackage({ network: 'MTN', sizeMb: 1024 * (i + 1), priceUserPesewas: 100_000 + i, priceAgentPesewas: 99_000 + i })
      const { phone, main } = await signedIn()
      expect(main.body).to.equal('CON Data Hub\n1. Buy data\n2. My last 5 orders\n3. Order status\n4. Earnings and payout\n5. Result checkers\n0. Exit')
      const hops = [
        main,
        await phone.send('1'),
        await phone.send('1'),
        await phone.send('9'),
        await phone.send('9'),
        await phone.send('x'),
        await phone.send('8')
      ]
      for (const h of hops) {
        expect(h.con, h.body).to.equal(true)
        expectFits(h)
      }
    })

    it('lists bundles at the agent price, paged, and goes back with 0 and to the main menu with 00', async () => {
      await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
      await createPackage({ network: 'MTN', sizeMb: 512, priceUserPesewas: 300, priceAgentPesewas: null })
      await createPackage({ network: 'TELECEL', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
      await createPackage({ network: 'MTN', sizeMb: 4096, priceUserPesewas: 1500, priceAgentPesewas: 1400, active: false })
      const { phone } = await signedIn('0241120002')
      let hop = await phone.send('1')
      expect(hop.text).to.equal('Buy data: choose network\n1. MTN\n2. Telecel\n3. AirtelTigo\n0 Back 00 Menu')
      hop = await phone.send('1')
      // Sorted by size; agent price where set, else the user price; inactive bundles hidden.
      expect(hop.text).to.equal('MTN bundles:\n1. 512MB GHS 3.00\n2. 1.0GB GHS 4.50\n0 Back 00 Menu')
      hop = await phone.send('0')
      expect(hop.text).to.match(/^Buy data: choose network/)
      hop = await phone.send('2')
      expect(hop.text).to.contain('1. 2.0GB GHS 8.00')
      hop = await phone.send('00')
      expect(hop.text).to.match(/^Data Hub\n1. Buy data/)
      hop = await phone.send('0')
      expect(hop.body).to.equal('END Thank you for using Data Hub.')
      expect(await app().db.models.UssdSession.count()).to.equal(0)
    })

    it('pages long bundle lists with 9 Next and 8 Prev', async () => {
      for (let i = 1; i <= 10; i++) await createPackage({ network: 'AIRTELTIGO', sizeMb: 1024 * i, priceUserPesewas: 1000 * i, priceAgentPesewas: 900 * i })
      const { phone } = await signedIn('0241120003')
      await phone.send('1')
      let hop = await phone.send('3')
      expect(hop.text).to.match(/^AirtelTigo bundles: \(1\/2\)\n1\. 1\.0GB GHS 9\.00\n/)
      expect(hop.text).to.contain('9 Next')
      expect(hop.text).not.to.contain('8 Prev')
      hop = await phone.send('9')
      expect(hop.text).to.match(/\(2\/2\)/)
      expect(hop.text).to.contain('8 Prev')
      expect(hop.text).not.to.contain('9 Next')
      hop = await phone.send('9')
      expect(hop.text).to.match(/^Invalid choice\./)
      hop = await phone.send('8')
      expect(hop.text).to.match(/\(1\/2\)/)
    })

    it('repeats the screen with a short note on invalid, overlong and garbage input', async () => {
      await createPackage({ network: 'MTN' })
      const { phone } = await signedIn('0241120004')
      let hop = await phone.send('7')
      expect(hop.body).to.equal(
        'CON Invalid choice.\nData Hub\n1. Buy data\n2. My last 5 orders\n3. Order status\n4. Earnings and payout\n5. Result checkers\n0. Exit'
      )
      hop = await phone.send('9'.repeat(300))
      expect(hop.text).to.match(/^Input too long\.\n/)
      expectFits(hop)
      hop = await phone.send('%$#@!<script>')
      expect(hop.text).to.match(/^Invalid choice\./)
      hop = await phone.send('\u00e9\u20ac')
      expect(hop.con).to.equal(true)
      expect(hop.text).to.match(/^Invalid choice\./)
      // Still fully usable afterwards.
      hop = await phone.send('1')
      expect(hop.text).to.match(/^Buy data: choose network/)
      hop = await phone.send('1')
      hop = await phone.send('1')
      expect(hop.text).to.match(/^Send the data to:\n1\. My number \(0241120004\)\n2\. Another number/)
      hop = await phone.send('2')
      expect(hop.text).to.match(/^Enter the recipient number/)
      hop = await phone.send('12345')
      expect(hop.text).to.match(/^Enter 9 to 12 digits\./)
      hop = await phone.send('0241abc567')
      expect(hop.text).to.match(/^Enter 9 to 12 digits\./)
      hop = await phone.send('1234567890123')
      expect(hop.text).to.match(/^Enter 9 to 12 digits\./)
      hop = await phone.send('0551234567')
      expect(hop.text).to.equal('Confirm purchase\n1.0GB MTN data\nTo: 0551234567\nPrice: GHS 4.50\n1. Mobile money\n2. Wallet (GHS 0.00)\n0 Back 00 Menu')
    })

    it('answers a repeated request (same text) with the same screen, and a malformed body with 400', async () => {
      const { phone } = await signedIn('0241120005')
      const a = await phone.send('1')
      const again = await phone.hop()
      expect(again.body).to.equal(a.body)
      const bad = await atHop({ sessionId: '', phoneNumber: 'abc', text: '' })
      expect(bad.status).to.equal(400)
      expect(bad.end).to.equal(true)
      const huge = await atHop({ sessionId: phone.sessionId, phoneNumber: phone.phone, text: '1*'.repeat(1500) })
      expect(huge.status).to.equal(400)
    })

    it('refuses a session id used from another number, and ends idle sessions after 3 minutes', async () => {
      const { phone } = await signedIn('0241120006')
      const other = await atHop({ sessionId: phone.sessionId, phoneNumber: '+233241120099', text: '1111' })
      expect(other.end).to.equal(true)
      await app().db.sequelize.query("UPDATE ussd_sessions SET expires_at = now() - interval '1 second'")
      const late = await phone.send('1')
      expect(late.body).to.equal('END Session timed out. Please dial again.')
      expect(await app().db.models.UssdSession.count()).to.equal(0)
    })

    it("lists the agent's last 5 orders and finds one by the last digits of its transaction id", async () => {
      const { agent, phone } = await signedIn('0241120007')
      for (let i = 0; i < 7; i++) {
        await createOrder({
          agentId: agent.id,
          userId: agent.userId,
          recipientNumber: `055000000${i}`,
          paymentTransactionId: `90000000000000${i}`,
          createdAt: new Date(Date.now() - (10 - i) * 60_000),
          paymentStatus: i === 6 ? 'SUCCESS' : 'FAILED'
        })
      }
      await createOrder({ recipientNumber: '0201111111', paymentTransactionId: '777777771234' }) // someone else's
      let hop = await phone.send('2')
      expect(hop.text.split('\n')).to.deep.equal([
        'Your last orders:',
        '1.0GB MTN ..0006 Paid',
        '1.0GB MTN ..0005 Failed',
        '1.0GB MTN ..0004 Failed',
        '1.0GB MTN ..0003 Failed',
        '1.0GB MTN ..0002 Failed',
        '0 Back 00 Menu'
      ])
      expectFits(hop)
      hop = await phone.send('0')
      hop = await phone.send('3')
      expect(hop.text).to.match(/^Order status\nEnter the last 4 or more digits/)
      hop = await phone.send('12')
      expect(hop.text).to.match(/^Enter at least 4 digits\./)
      hop = await phone.send('1234')
      expect(hop.text).to.match(/^No order found with those digits\./)
      hop = await phone.send('0006')
      expect(hop.text).to.equal('Order ..00000006\n1.0GB MTN to 0550000006\nAmount: GHS 5.00\nPayment: Successful\nDelivery: Awaiting delivery\n0 Back 00 Menu')
    })
  })
  describe('purchase', () => {
    beforeEach(() => app().db.models.Package.destroy({ where: {} }))

    it('a whitelisted, approved agent buys 1GB MTN for another number at the agent price; it shows in My Orders and succeeds when the payer approves', async () => {
      const pkg = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
      const { agent, pin } = await ussdAgent({ phone: '0241130001', email: 'ussd.agent@test.local', password: 'agent-pass-1' })
      await app().services.settings.update({ ussdWhitelistEnabled: true }, {})
      await app().db.models.UssdWhitelist.create({ phoneNumber: '0241130001', isActive: true })

      const phone = new AtPhone('+233241130001')
      expect((await phone.dial()).text).to.contain('PIN')
      expect((await phone.send(pin)).text).to.contain('1. Buy data')
      await phone.send('1') // Buy data
      expect((await phone.send('1')).text).to.equal('MTN bundles:\n1. 1.0GB GHS 4.50\n0 Back 00 Menu')
      await phone.send('1') // 1.0GB
      await phone.send('2') // another number
      const confirm = await phone.send('0551234567')
      expect(confirm.text).to.equal('Confirm purchase\n1.0GB MTN data\nTo: 0551234567\nPrice: GHS 4.50\n1. Mobile money\n2. Wallet (GHS 0.00)\n0 Back 00 Menu')
      const done = await phone.send('1')
      expect(done.end, done.body).to.equal(true)
      expect(done.text).to.match(
        /^Order placed: 1\.0GB MTN to 0551234567\. A payment prompt for GHS 4\.50 is coming to 0241130001\. Approve it to pay\. Ref \d{8}$/
      )
      expect(done.body.length).to.be.at.most(LIMIT)
      expect(await app().db.models.UssdSession.count()).to.equal(0)

      const order = (await app().db.models.Order.findOne({ where: { agentId: agent.id } }))!.get({ plain: true }) as any
      expect(order).to.include({
        packageId: pkg.id,
        recipientNumber: '0551234567',
        network: 'MTN',
        amountPesewas: 450,
        paymentStatus: 'PENDING',
        channel: 'ussd',
        userId: agent.userId
      })
      expect(done.text.endsWith(order.paymentTransactionId.slice(-8))).to.equal(true)
      const payment = (await app().db.models.Payment.findOne({ where: { transactionId: order.paymentTransactionId } }))!.get({ plain: true }) as any
      expect(payment).to.include({ status: 'PENDING', method: 'momo', payerPhone: '0241130001', payerNetwork: 'MTN', amountPesewas: 450, purpose: 'data' })
      // Written in one transaction: both marked simulated (no real money), the audit entry with them.
      expect(order.simulated).to.equal(true)
      expect(payment.simulated).to.equal(true)
      expect(payment.orderId).to.equal(order.id)
      expect(await app().db.models.AuditLog.count({ where: { action: 'ORDER_CREATED', resourceId: String(order.id) } })).to.equal(1)

      // The order is in the agent's own list on the web.
      const web = new Client()
      expect((await web.login('ussd.agent@test.local', 'agent-pass-1')).status).to.equal(200)
      const mine = await web.get('/api/orders?page=1&limit=20&includeExported=true')
      expect(mine.status).to.equal(200)
      const list = Array.isArray(mine.body) ? mine.body : mine.body.orders
      expect(list.map((o: any) => o.paymentTransactionId)).to.include(order.paymentTransactionId)

      // The payer approves the prompt on the phone (the payment simulator): the order succeeds.
      await app().services.simulator.approve(order.paymentTransactionId)
      expect((await app().db.models.Order.findByPk(order.id))!.get('paymentStatus')).to.equal('SUCCESS')

      const again = new AtPhone('+233241130001')
      await again.dial()
      await again.send(pin)
      await again.send('3')
      const status = await again.send(order.paymentTransactionId.slice(-6))
      expect(status.text).to.contain('Payment: Successful')
    })

    it('places one order when the gateway retries the confirming hop while the first is still working', async () => {
      await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
      const { agent, pin } = await ussdAgent({ phone: '0241130003' })
      const phone = new AtPhone('+233241130003')
      await phone.dial()
      for (const input of [pin, '1', '1', '1', '1']) await phone.send(input)
      phone.inputs.push('1')
      const [a, b] = await Promise.all([phone.hop(), phone.hop()])
      expect([a.end, b.end]).to.deep.equal([true, true])
      expect([a.text, b.text].filter((t) => t.startsWith('Order placed'))).to.have.length(1)
      expect(await app().db.models.Order.count({ where: { agentId: agent.id } })).to.equal(1)
    })

    it("uses the caller's own number as recipient, asks the mobile money network when it cannot tell, and stops with the rule's text when purchases are closed", async () => {
      await createPackage({ network: 'TELECEL', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
      const { agent, pin } = await ussdAgent({ phone: '0301130002' })
      const phone = new AtPhone('+233301130002')
      phone.hop = function () {
        return atHop({ sessionId: this.sessionId, serviceCode: '*920*44#', phoneNumber: this.phone, networkCode: '', text: this.text })
      }
      await phone.dial()
      await phone.send(pin)
      await phone.send('1')
      await phone.send('2')
      await phone.send('1')
      let hop = await phone.send('1') // my number
      expect(hop.text).to.equal('Your mobile money network:\n1. MTN\n2. Telecel\n3. AirtelTigo\n0 Back 00 Menu')
      hop = await phone.send('2')
      expect(hop.text).to.contain('To: 0301130002')
      await app().services.settings.update({ platformOpen: false }, {})
      hop = await phone.send('1')
      expect(hop.body).to.equal('END Purchases are temporarily disabled')
      expect(await app().db.models.Order.count({ where: { agentId: agent.id } })).to.equal(0)

      const later = new AtPhone('+233301130002')
      await later.dial()
      await later.send(pin)
      expect((await later.send('1')).text).to.match(/^Purchases are temporarily disabled\.\n/)
    })
  })
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
