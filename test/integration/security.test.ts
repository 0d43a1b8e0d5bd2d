import { expect } from 'chai'
import fs from 'node:fs'
import { QueryTypes } from 'sequelize'
import { loadEnv } from '../../server/env.ts'
import { commissionFor } from '../../server/services/commissions/index.ts'
import { PIN_LOCK_MINUTES } from '../../server/services/ussd/index.ts'
import * as factories from '../helpers/factories.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { Client, adminClient } from '../helpers/http.ts'

// Each repro of the attack tests, as a test that failed before the fix.
const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
const from = (ip: string) => ({ 'X-Forwarded-For': ip })
async function buy(client: Client, over: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  return client.post(
    '/api/orders',
    { packageId: await mtn1gb(), recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN', ...over },
    headers
  )
}

describe('security', () => {
  beforeEach(resetDb)

  describe('1. simulated payments', () => {
    it('refuses a production start on DATABASE_URL without a gateway unless PAYMENT_PROVIDER=simulator', () => {
      const secret = { SESSION_SECRET: 's'.repeat(32) }
      const base = { NODE_ENV: 'production', DATABASE_URL: 'postgres://u:p@db.example/datahub', ...secret }
      expect(() => loadEnv(base)).to.throw(/No payment gateway is configured/)
      expect(loadEnv({ ...base, PAYMENT_PROVIDER: 'simulator' }).PAYMENT_PROVIDER).to.equal('simulator')
      expect(() => loadEnv({ ...base, PAYSTACK_SECRET_KEY: 'sk_live_x', PAYER_EMAIL_DOMAIN: 'customers.example.com' })).not.to.throw()
      // The fresh-machine demo: production on the embedded database keeps the simulator.
      expect(() => loadEnv({ NODE_ENV: 'production', ...secret })).not.to.throw()
      expect(() => loadEnv({ PAYMENT_PROVIDER: 'paystack' })).to.throw(/needs PAYSTACK_SECRET_KEY/)
    })

    it('marks simulator payments and their orders simulated: admin table, CSV export and audit say so', async () => {
      await app().services.settings.update({ deliveryMode: 'manual' }, {}) // exported by hand, as in manual mode
      const shopper = new Client()
      const { body } = await buy(shopper)
      const tid = body.payment.transactionId
      expect((await shopper.post(`/api/simulator/payments/${tid}/approve`)).body.paymentStatus).to.equal('SUCCESS')
      const [p] = await q('SELECT simulated FROM payments WHERE transaction_id = :tid', { tid })
      expect(p.simulated).to.equal(true)
      const admin = await adminClient()
      const list = await admin.get('/api/orders')
      expect(list.body.orders.find((o: any) => o.id === body.id)).to.include({ simulated: true })
      const [audit] = await q(`SELECT details FROM audit_logs WHERE action = 'PAYMENT_SUCCESS'`)
      expect(audit.details).to.include({ simulated: true })
      const csv = await admin.post('/api/orders/export')
      expect(csv.text).to.include('Simulated Payment')
      expect(csv.text).to.include('YES - do not deliver')
      // An AFA fee taken by the simulator: the registration says so in the admin list and export.
      const afa = await shopper.post('/api/payment/request', {
        type: 'afa_registration',
        fullName: 'Ama Mensah',
        ghCard: 'GHA-123456789-0',
        phone: '0241234567',
        phone_number: '0241234567',
        network: 'MTN'
      })
      expect(afa.status).to.equal(200)
      await app().services.settings.update({ afaRegistrationFee: 10 }, {})
      const paidAfa = await shopper.post('/api/payment/request', {
        type: 'afa_registration',
        fullName: 'Kofi Boat',
        ghCard: 'GHA-123456789-1',
        phone: '0241234568',
        phone_number: '0241234568',
        network: 'MTN'
      })
      await shopper.post(`/api/simulator/payments/${paidAfa.body.transactionId}/approve`)
      const regs = (await admin.get('/api/afa')).body.registrations
      expect(regs.find((r: any) => r.fullName === 'Kofi Boat')).to.include({ simulated: true })
      expect(regs.find((r: any) => r.fullName === 'Ama Mensah')).to.include({ simulated: false })
      expect((await admin.post('/api/afa/export')).text).to.include('YES - do not register')
    })

    it("every page shows 'Demo: payments are simulated' while the simulator takes payments", async () => {
      const admin = await adminClient()
      for (const [c, path] of [
        [new Client(), '/'],
        [new Client(), '/login'],
        [new Client(), '/afa'],
        [new Client(), '/agent/register'],
        [admin, '/admin/orders']
      ] as const) {
        const r = await c.get(path, { Accept: 'text/html' })
        expect(r.status, path).to.equal(200)
        expect(r.text, path).to.include('Demo: payments are simulated')
      }
    })

    it("the simulator phone lists only this browser's prompts (or a typed number's), and checkout is the starter's", async () => {
      const shopper = new Client()
      const { body } = await buy(shopper)
      const tid = body.payment.transactionId
      const stranger = new Client()
      expect((await stranger.get('/api/simulator/prompts')).body.prompts).to.deep.equal([])
      expect((await shopper.get('/api/simulator/prompts')).body.prompts.map((p: any) => p.reference)).to.deep.equal([tid])
      expect((await stranger.get('/api/simulator/prompts?phone=0241234567')).body.prompts).to.have.length(1)
      expect((await stranger.get(`/api/simulator/payments/${tid}`)).status).to.equal(404)
      expect((await shopper.get(`/api/simulator/payments/${tid}`)).status).to.equal(200)
      expect((await stranger.get(`/api/simulator/payments/${tid}?phone=233241234567`)).status).to.equal(200)
    })
  })

  describe('2. sign-in throttling', () => {
    it('ten wrong passwords from one address never lock the owner out from another; the attacker waits longer each time; the owner is told', async () => {
      for (let i = 0; i < 10; i++) {
        const r = await new Client().post('/api/auth/login', { email: ADMIN.email, password: `wrong-${i}` }, from('203.0.113.9'))
        expect(r.status).to.be.oneOf([401, 429])
      }
      const owner = await new Client().post('/api/auth/login', ADMIN, from('198.51.100.7'))
      expect(owner.status).to.equal(200)
      const attacker = await new Client().post('/api/auth/login', ADMIN, from('203.0.113.9'))
      expect(attacker.status).to.equal(429)
      const firstWait = Number(attacker.headers.get('retry-after'))
      expect(firstWait).to.be.within(1, 60)
      // The wait passes; the next failure from that address waits twice as long.
      await app().db.sequelize.query(`UPDATE rate_limiter_flexible SET expire = :now WHERE key LIKE 'login_pair:%'`, { replacements: { now: Date.now() - 1 } })
      expect((await new Client().post('/api/auth/login', { email: ADMIN.email, password: 'again' }, from('203.0.113.9'))).status).to.equal(401)
      const second = await new Client().post('/api/auth/login', ADMIN, from('203.0.113.9'))
      expect(second.status).to.equal(429)
      expect(Number(second.headers.get('retry-after'))).to.be.within(61, 120)
      const [admin] = await q<{ id: number }>('SELECT id FROM users WHERE email = :e', { e: ADMIN.email })
      const entries = await q(`SELECT action, user_id, severity, details FROM audit_logs WHERE action = 'LOGIN_THROTTLED' ORDER BY id`)
      expect(entries.length).to.be.at.least(2)
      expect(entries[0]).to.include({ user_id: admin!.id })
      expect(entries[0].details).to.include({ fromAddress: '203.0.113.9', waitSeconds: 60 })
      expect(entries.at(-1).details.waitSeconds).to.equal(120)
    })
  })

  describe('4. USSD lock time', () => {
    it('decision 0004 states the PIN lock the code uses', () => {
      const text = fs.readFileSync('docs/decisions/0004-agent-gating.md', 'utf8')
      expect(text).to.include(`${PIN_LOCK_MINUTES}-minute lock`)
      expect(text).not.to.match(/\b15-minute lock/)
    })
  })

  describe('5. privacy of the public lookup and of payments', () => {
    it("an agent's number does not list the customers it bought for; a visitor's purchase shows for either number", async () => {
      const a = await factories.createAgent({ phone: '0247770001' })
      const agent = new Client()
      await agent.login(a.user.email, a.password)
      expect((await buy(agent, { recipientNumber: '0551230001', payerPhone: '0247770001' })).status).to.equal(201)
      await buy(new Client(), { recipientNumber: '0551230002', payerPhone: '0201239999' })
      expect((await new Client().get('/api/orders?phoneNumber=0247770001')).body).to.deep.equal([])
      expect((await new Client().get('/api/orders?phoneNumber=0551230001')).body).to.have.length(1)
      expect((await new Client().get('/api/orders?phoneNumber=233201239999')).body.map((o: any) => o.recipientNumber)).to.deep.equal(['0551230002'])
    })

    it('a transaction id alone opens neither status nor verify of a payment another browser started', async () => {
      const shopper = new Client()
      const { body } = await buy(shopper)
      const tid = body.payment.transactionId
      const stranger = new Client()
      expect((await stranger.get(`/api/payment/status/${tid}`)).status).to.equal(404)
      expect((await stranger.get(`/api/webhooks/paystack?reference=${tid}`)).status).to.equal(404)
      expect((await stranger.get(`/api/payment/status/${tid}?phone=0241234567`)).status).to.equal(200)
      expect((await stranger.get(`/api/payment/status/${tid}?phone=0240000000`)).status).to.equal(404)
      expect((await shopper.get(`/api/payment/status/${tid}`)).body).to.include({ paymentStatus: 'PENDING' })
      expect((await shopper.get(`/api/webhooks/paystack?reference=${tid}`)).body).to.include({ status: 'pending' })
    })
  })

  describe('6. money edges', () => {
    it('a FIXED commission never exceeds the order amount', async () => {
      const fixed = { commissionType: 'FIXED' as const, commissionPercentage: 10, commissionFixedAmount: 7.5 }
      expect(commissionFor(500, fixed)).to.equal(500)
      expect(commissionFor(1000, fixed)).to.equal(750)
      await app().services.settings.update({ commissionType: 'FIXED', commissionFixedAmount: 20 }, {})
      const shopper = new Client()
      const { body } = await buy(shopper)
      await shopper.post(`/api/simulator/payments/${body.payment.transactionId}/approve`)
      const [c] = await q('SELECT commission_amount_pesewas AS c FROM commissions')
      expect(c.c).to.equal(500)
    })

    it('refuses packages priced 0, agent prices above user prices, and amounts that round to 0 pesewas', async () => {
      const admin = await adminClient()
      const pkg = { network: 'MTN', sizeMB: 2048, priceUser: 5, priceAgent: 4 }
      for (const bad of [{ priceUser: 0 }, { priceUser: 0.004 }, { priceAgent: 6 }, { priceAgent: 0.001 }]) {
        const r = await admin.post('/api/packages', { ...pkg, ...bad })
        expect(r.status, JSON.stringify(bad)).to.equal(400)
      }
      expect((await admin.post('/api/packages', { ...pkg, priceAgent: 5 })).status).to.equal(201)
      const fee = await admin.put('/api/settings', { agentRegistrationFee: 0.004 })
      expect(fee.status).to.equal(400)
      expect(fee.body.error).to.match(/at least 0.01/)
      expect((await admin.put('/api/settings', { agentRegistrationFee: 0 })).status).to.equal(200)
      // A package stored at 0 before this rule is never sold for nothing.
      const free: any = await factories.createPackage({ sizeMb: 4096, priceUserPesewas: 0, priceAgentPesewas: null })
      expect((await buy(new Client(), { packageId: free.id })).status).to.equal(400)
    })
  })

  describe('8. bad input never answers 500', () => {
    it('a non-JSON Content-Type on login, register, change password and settings is 415 with a clear message', async () => {
      const admin = await adminClient()
      for (const path of ['/api/auth/login', '/api/agents/register', '/api/auth/change-password']) {
        const r = await new Client().request('POST', path, 'email=x', { 'Content-Type': 'text/plain' })
        expect(r.status, path).to.equal(415)
        expect(r.body.error).to.match(/Content-Type/)
      }
      expect((await admin.request('POST', '/api/auth/change-password', '<a/>', { 'Content-Type': 'application/xml' })).status).to.equal(415)
      expect((await admin.request('PUT', '/api/settings', 'x', { 'Content-Type': 'text/plain' })).status).to.equal(415)
    })

    it('\\u0000 in any text field answers 400, the public AFA payment request included', async () => {
      const admin = await adminClient()
      const calls: Array<[Client, string, string, unknown]> = [
        [new Client(), 'POST', '/api/auth/login', { email: 'a\u0000@x.com', password: 'x' }],
        [
          new Client(),
          'POST',
          '/api/payment/request',
          { type: 'afa_registration', fullName: 'Ama\u0000', ghCard: 'GHA-123456789-0', phone: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN' }
        ],
        [new Client(), 'POST', '/api/agents/register', { name: 'x\u0000', phone: '0241234567', email: 'n@x.com', password: 'secret-1' }],
        [admin, 'PUT', '/api/settings', { siteName: 'Hub\u0000' }],
        [new Client(), 'GET', '/api/orders?phoneNumber=024%00', undefined]
      ]
      for (const [c, method, path, body] of calls) {
        const r = await c.request(method, path, body)
        expect(r.status, path).to.equal(400)
        expect(r.body.error, path).to.match(/NUL/)
      }
    })
  })

  describe('10. fair limits behind carrier NAT', () => {
    it('many customers behind one address can order and look up; one phone number cannot be used in bulk', async () => {
      // 50 customers, one carrier address (the old per-address limit refused the 41st).
      for (let i = 0; i < 50; i++) {
        const r = await buy(
          new Client(),
          { payerPhone: `02440${String(i).padStart(5, '0')}`, recipientNumber: `02440${String(i).padStart(5, '0')}` },
          from('41.66.200.1')
        )
        expect(r.status, `order ${i}`).to.equal(201)
      }
      // One number looked up from many addresses is still limited.
      let refused = 0
      for (let i = 0; i < 32; i++) {
        const r = await new Client().get('/api/orders?phoneNumber=0244000001', from(`10.9.0.${i}`))
        if (r.status === 429) refused++
      }
      expect(refused).to.equal(2)
    })

    it('registrations: generous per address, tight per phone number', async function () {
      // 39 registrations, each hashing a password: 18 s on a loaded 2-core machine, near the 20 s default.
      this.timeout(60_000)
      for (let i = 0; i < 35; i++) {
        const r = await new Client().post(
          '/api/agents/register',
          { name: `Agent ${i}`, phone: `02770${String(i).padStart(5, '0')}`, email: `nat${i}@x.com`, password: 'secret-12' },
          from('41.66.200.2')
        )
        expect(r.status, `registration ${i}`).to.equal(201)
      }
      const statuses: number[] = []
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (
            await new Client().post(
              '/api/agents/register',
              { name: 'Dup', phone: '0277999999', email: `dup${i}@x.com`, password: 'secret-12' },
              from(`10.8.0.${i}`)
            )
          ).status
        )
      }
      expect(statuses).to.deep.equal([201, 409, 409, 429])
    })
  })
})
