import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { isGuessablePin, randomPin } from '../../server/services/agents/pin.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// Loosely typed on purpose: the factories return plain rows.
const createAgent = (over?: Record<string, any>): Promise<any> => factories.createAgent(over)
const createUser = (over?: Record<string, any>): Promise<any> => factories.createUser(over)
const createOrder = (over?: Record<string, any>): Promise<any> => factories.createOrder(over)

async function agentClient(over: Record<string, any> = {}) {
  const a = await createAgent(over)
  const c = new Client()
  const res = await c.login(a.user.email, a.password)
  expect(res.status).to.equal(200)
  return { ...a, c }
}

async function setFee(ghs: number) {
  const admin = await adminClient()
  const res = await admin.put('/api/settings', { agentRegistrationFee: ghs })
  expect(res.status).to.equal(200)
}

/** Whether the agent's USSD PIN is locked now (columns shared by the PIN check and the reset). */
async function pinLocked(agentId: number): Promise<boolean> {
  const [row] = await app().db.sequelize.query<{ locked: boolean }>('SELECT pin_locked_until > now() AS locked FROM agents WHERE id = :id', {
    replacements: { id: agentId },
    type: QueryTypes.SELECT
  })
  return !!row?.locked
}

describe('agents API: registration', () => {
  beforeEach(resetDb)

  const good = { name: 'Kofi Data Ventures', phone: '0241234567', email: '  Kofi@Example.COM ', password: 'secret1' }

  it('creates an AGENT user and an unapproved agent profile without payment, and the agent can sign in', async () => {
    await setFee(50)
    const res = await new Client().post('/api/agents/register', good)
    expect(res.status).to.equal(201)
    expect(res.body.agent).to.include({ name: 'Kofi Data Ventures', phone: '0241234567', email: 'kofi@example.com', approved: false, paymentStatus: null })
    const user = await app().db.models.User.findOne({ where: { email: 'kofi@example.com' } })
    expect(user!.get('role')).to.equal('AGENT')
    const c = new Client()
    const login = await c.login('kofi@example.com', 'secret1')
    expect(login.status).to.equal(200)
    expect(login.body.role).to.equal('AGENT')
  })

  it('satisfies the fee step at once when the fee is 0', async () => {
    const res = await new Client().post('/api/agents/register', good)
    expect(res.status).to.equal(201)
    expect(res.body.agent).to.include({ approved: false, paymentStatus: 'SUCCESS', paymentTransactionId: null })
  })

  it('answers a used email with a clear 409, whatever its case', async () => {
    await createUser({ email: 'kofi@example.com' })
    const res = await new Client().post('/api/agents/register', { ...good, email: 'KOFI@example.com' })
    expect(res.status).to.equal(409)
    expect(res.body.error).to.match(/email already exists/i)
  })

  it('refuses a phone another agent uses, in either spelling', async () => {
    await createAgent({ phone: '0241234567' })
    const res = await new Client().post('/api/agents/register', { ...good, phone: '233241234567' })
    expect(res.status).to.equal(409)
    expect(res.body.error).to.match(/phone number already exists/)
  })

  it('validates every field with the spec texts and creates nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, name: '   ' }, 'Enter your business/full name'],
      [{ ...good, name: undefined }, 'Enter your business/full name'],
      [{ ...good, phone: '02412' }, 'Enter a valid phone number'],
      [{ ...good, phone: '0241234567890' }, 'Enter a valid phone number'],
      [{ ...good, phone: '024-123-4567' }, 'Enter a valid phone number'],
      [{ ...good, email: 'not-an-email' }, 'Enter a valid email'],
      [{ ...good, password: '12345' }, 'Password must be at least 6 characters'],
      [{ ...good, password: 123456 }, 'Password must be at least 6 characters']
    ]
    for (const [body, error] of cases) {
      const res = await new Client().post('/api/agents/register', body)
      expect(res.status, JSON.stringify(body)).to.equal(400)
      expect(res.body.error).to.equal(error)
    }
    expect(await app().db.models.Agent.count()).to.equal(0)
  })
})

describe('agents API: profile, list and approval', () => {
  beforeEach(resetDb)

  it("gives an agent its own profile and refuses another agent's", async () => {
    const a = await agentClient({ name: 'Agent A' })
    const b = await createAgent({ name: 'Agent B' })
    const own = await a.c.get(`/api/agents/${a.agent.id}`)
    expect(own.status).to.equal(200)
    expect(own.body).to.include({ id: a.agent.id, name: 'Agent A', email: a.user.email, approved: true, paymentStatus: 'SUCCESS' })
    expect(own.body).to.not.have.property('pinHash')
    const other = await a.c.get(`/api/agents/${b.agent.id}`)
    expect(other.status).to.equal(404)
    expect(JSON.stringify(other.body)).to.not.include('Agent B')
    expect((await a.c.get(`/api/agents/${b.agent.id}/payment/status`)).status).to.equal(404)
    expect((await a.c.post(`/api/agents/${b.agent.id}/payment/request`, { phone_number: '0241234567', network: 'MTN' })).status).to.equal(404)
    expect((await a.c.get('/api/agents/abc')).status).to.equal(400)
    const me = await a.c.get('/api/agents/me')
    expect(me.status).to.equal(200)
    expect(me.body.id).to.equal(a.agent.id)
    expect((await (await adminClient()).get('/api/agents/me')).status).to.equal(403)
    expect((await new Client().get(`/api/agents/${a.agent.id}`)).status).to.equal(401)
  })

  it('lets admins read any agent and list them all; others may not list', async () => {
    const a = await agentClient({ name: 'Agent A' })
    await createAgent({ name: 'Agent B', approved: false, paymentStatus: null })
    const admin = await adminClient()
    expect((await admin.get(`/api/agents/${a.agent.id}`)).body.name).to.equal('Agent A')
    const list = await admin.get('/api/agents')
    expect(list.status).to.equal(200)
    expect(list.body.map((x: any) => x.name).sort()).to.deep.equal(['Agent A', 'Agent B'])
    expect(list.body[0]).to.have.keys([
      'id',
      'userId',
      'name',
      'phone',
      'email',
      'approved',
      'approvedAt',
      'paymentStatus',
      'paymentTransactionId',
      'hasPin',
      'tierId',
      'parentAgentId',
      'createdAt',
      'user'
    ])
    expect((await a.c.get('/api/agents')).status).to.equal(403)
    expect((await new Client().get('/api/agents')).status).to.equal(401)
  })

  it('approves only agents whose fee payment is SUCCESS, audited AGENT_APPROVED, and unapproves them', async () => {
    const paid = await createAgent({ approved: false, paymentStatus: 'SUCCESS' })
    const unpaid = await createAgent({ approved: false, paymentStatus: 'PENDING' })
    const never = await createAgent({ approved: false, paymentStatus: null })
    const admin = await adminClient()
    for (const x of [unpaid, never]) {
      const res = await admin.patch(`/api/agents/${x.agent.id}/approve`)
      expect(res.status).to.equal(409)
      expect(res.body.error).to.match(/registration payment is successful/)
    }
    const ok = await admin.patch(`/api/agents/${paid.agent.id}/approve`)
    expect(ok.status).to.equal(200)
    expect(ok.body.agent).to.include({ approved: true })
    // Approving twice records one entry.
    await admin.patch(`/api/agents/${paid.agent.id}/approve`)
    const logs = await app().db.models.AuditLog.findAll({ where: { action: 'AGENT_APPROVED' } })
    expect(logs).to.have.length(1)
    expect(logs[0]!.get('resourceId')).to.equal(String(paid.agent.id))
    const off = await admin.patch(`/api/agents/${paid.agent.id}/unapprove`)
    expect(off.body.agent.approved).to.equal(false)
    expect((await admin.patch('/api/agents/999999/approve')).status).to.equal(404)
  })

  it('refuses approval to anyone but admins', async () => {
    const a = await agentClient({ approved: false })
    expect((await a.c.patch(`/api/agents/${a.agent.id}/approve`)).status).to.equal(403)
    const buyer = await createUser()
    const c = new Client()
    await c.login(buyer.email, buyer.password)
    expect((await c.patch(`/api/agents/${a.agent.id}/approve`)).status).to.equal(403)
    expect((await new Client().patch(`/api/agents/${a.agent.id}/approve`)).status).to.equal(401)
    const row = await app().db.models.Agent.findByPk(a.agent.id)
    expect(row!.get('approved')).to.equal(false)
  })
})

describe('agents API: USSD PIN', () => {
  beforeEach(resetDb)

  it('returns a new random 4-digit PIN once, stores only its hash, and verifyPin accepts it', async () => {
    const a = await agentClient()
    const res = await a.c.post('/api/agents/me/pin/reset')
    expect(res.status).to.equal(200)
    expect(res.headers.get('cache-control')).to.equal('no-store')
    const pin = res.body.pin as string
    expect(pin).to.match(/^\d{4}$/)
    expect(isGuessablePin(pin)).to.equal(false)
    const [row] = await app().db.sequelize.query<{ pin_hash: string }>('SELECT pin_hash FROM agents WHERE id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(row!.pin_hash).to.match(/^\$argon2id\$/)
    expect(row!.pin_hash).to.not.include(pin)
    const audit = await app().db.sequelize.query('SELECT details::text AS d FROM audit_logs', { type: QueryTypes.SELECT })
    for (const r of audit as { d: string }[]) expect(r.d).to.not.include(pin)
    expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(true)
    const wrong = pin === '9999' ? '8888' : String((Number(pin) + 1) % 10000).padStart(4, '0')
    expect((await app().services.ussd.verifyPin(a.agent.id, wrong)).ok).to.equal(false)
    // A second reset replaces the first PIN.
    const again = await a.c.post('/api/agents/me/pin/reset')
    if (again.body.pin !== pin) expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(false)
    expect((await app().services.ussd.verifyPin(a.agent.id, again.body.pin)).ok).to.equal(true)
    expect((await a.c.get(`/api/agents/${a.agent.id}`)).body.hasPin).to.equal(true)
  })

  it('locks the PIN per agent after 5 failures, even for the right PIN', async () => {
    const a = await agentClient()
    const { pin } = (await a.c.post('/api/agents/me/pin/reset')).body
    const wrong = pin === '9999' ? '8888' : String((Number(pin) + 1) % 10000).padStart(4, '0')
    for (let i = 0; i < 5; i++) expect((await app().services.ussd.verifyPin(a.agent.id, wrong)).ok).to.equal(false)
    expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(false)
    expect(await pinLocked(a.agent.id)).to.equal(true)
    // A reset unlocks it.
    const fresh = (await a.c.post('/api/agents/me/pin/reset')).body.pin
    expect((await app().services.ussd.verifyPin(a.agent.id, fresh)).ok).to.equal(true)
  })

  it('never hands out guessable PINs', () => {
    for (const p of ['0000', '1111', '1234', '4321', '1212', '2580', '1122', '1221', '1990', '2024', '6789', '9876'])
      expect(isGuessablePin(p), p).to.equal(true)
    // Not four digits: never a PIN to hand out.
    for (const p of ['', '482', '48291', '48a9']) expect(isGuessablePin(p), p).to.equal(true)
    // Each is one step short of a guessable pattern: one run step, one doubled digit, one mirrored pair.
    for (const p of ['4829', '7153', '0391', '4568', '8653', '4471', '4711', '4714', '4772']) expect(isGuessablePin(p), p).to.equal(false)
    // About 1 PIN in 20 is guessable: 2,000 draws would meet dozens if randomPin handed them out.
    for (let i = 0; i < 2000; i++) {
      const pin = randomPin()
      expect(pin).to.match(/^\d{4}$/)
      expect(isGuessablePin(pin), pin).to.equal(false)
    }
  })

  it('resets only for agents; verifyPin is false without a PIN', async () => {
    expect((await (await adminClient()).post('/api/agents/me/pin/reset')).status).to.equal(403)
    expect((await new Client().post('/api/agents/me/pin/reset')).status).to.equal(401)
    const a = await createAgent()
    expect((await app().services.ussd.verifyPin(a.agent.id, '4829')).ok).to.equal(false)
    expect((await app().services.ussd.verifyPin(999999, '4829')).ok).to.equal(false)
  })
})

describe('agents API: own orders (GET /api/orders for agents)', () => {
  beforeEach(resetDb)

  it("lists only the agent's own orders, with filters, counts and includeExported", async () => {
    const a = await agentClient()
    const b = await createAgent()
    await createOrder({
      agentId: a.agent.id,
      userId: a.user.id,
      recipientNumber: '0241111111',
      network: 'MTN',
      paymentStatus: 'SUCCESS',
      delivered: true,
      amountPesewas: 450
    })
    await createOrder({ agentId: a.agent.id, userId: a.user.id, recipientNumber: '0202222222', network: 'TELECEL', paymentStatus: 'PENDING' })
    // Exported: the export takes only paid orders and they read as delivered (ADR 0021).
    await createOrder({
      agentId: a.agent.id,
      userId: a.user.id,
      recipientNumber: '0263333333',
      network: 'AIRTELTIGO',
      paymentStatus: 'SUCCESS',
      exported: true
    })
    await createOrder({ agentId: b.agent.id, userId: b.user.id, recipientNumber: '0244444444', network: 'MTN', paymentStatus: 'SUCCESS' })

    const all = await a.c.get('/api/orders?includeExported=true')
    expect(all.status).to.equal(200)
    expect(all.body.orders.map((o: any) => o.recipientNumber).sort()).to.deep.equal(['0202222222', '0241111111', '0263333333'])
    expect(all.body.pagination).to.include({ total: 3, page: 1 })
    expect(all.body.totalAll).to.equal(3)
    const delivered = all.body.orders.find((o: any) => o.recipientNumber === '0241111111')
    expect(delivered).to.include({ displayStatus: 'DELIVERED', paymentStatus: 'SUCCESS', amount: 4.5, dataSizeMB: 1024 })

    expect((await a.c.get('/api/orders')).body.pagination.total).to.equal(2)
    expect((await a.c.get('/api/orders?includeExported=true&status=DELIVERED')).body.orders).to.have.length(2)
    expect((await a.c.get('/api/orders?status=DELIVERED')).body.orders).to.have.length(1)
    expect((await a.c.get('/api/orders?includeExported=true&status=SUCCESS')).body.orders).to.have.length(0)
    expect((await a.c.get('/api/orders?includeExported=true&network=telecel')).body.orders[0].recipientNumber).to.equal('0202222222')
    const search = await a.c.get('/api/orders?includeExported=true&search=233263333333')
    expect(search.body.orders.map((o: any) => o.recipientNumber)).to.deep.equal(['0263333333'])
    expect(search.body.totalAll).to.equal(3)
    expect((await a.c.get('/api/orders?includeExported=true&search=airtel')).body.orders).to.have.length(1)
    expect((await a.c.get('/api/orders?status=BOGUS')).status).to.equal(400)
  })

  it('refuses the orders table to unapproved or unpaid agents and to non-agents', async () => {
    for (const over of [{ approved: false }, { paymentStatus: 'PENDING' }, { approved: false, paymentStatus: null }]) {
      const a = await agentClient(over)
      const res = await a.c.get('/api/orders?includeExported=true')
      expect(res.status, JSON.stringify(over)).to.equal(403)
    }
    expect((await new Client().get('/api/orders')).status).to.equal(401)
  })
})

describe('agents API: inbox (/api/admin-messages)', () => {
  beforeEach(resetDb)

  async function message(userIds: number[], title: string) {
    const { AdminMessage, AdminMessageRecipient } = app().db.models
    const m = await AdminMessage.create({ title, message: `${title} body`, priority: 'HIGH' })
    for (const userId of userIds) await AdminMessageRecipient.create({ messageId: m.get('id'), userId, isRead: false })
    return m.get('id') as number
  }

  it('lists own messages, counts unread, marks read once and never goes below 0', async () => {
    const a = await agentClient()
    const b = await agentClient()
    const m1 = await message([a.user.id, b.user.id], 'Price update')
    await message([a.user.id], 'Welcome')
    const mB = await message([b.user.id], 'Only for B')

    const list = await a.c.get('/api/admin-messages/my-messages')
    expect(list.status).to.equal(200)
    // Spec section 7 answers { messages: [...] }, not a bare array.
    expect(list.body).to.have.keys(['messages'])
    expect(list.body.messages.map((x: any) => x.message.title)).to.deep.equal(['Welcome', 'Price update'])
    expect(list.body.messages[0]).to.have.keys(['id', 'messageId', 'isRead', 'readAt', 'message'])
    expect(list.body.messages[0].message).to.include({ priority: 'HIGH', message: 'Welcome body' })
    expect((await a.c.get('/api/admin-messages/unread-count')).body).to.deep.equal({ unreadCount: 2 })

    const read = await a.c.patch(`/api/admin-messages/${m1}/read`)
    expect(read.status).to.equal(200)
    expect(read.body.unreadCount).to.equal(1)
    expect((await a.c.patch(`/api/admin-messages/${m1}/read`)).body.unreadCount).to.equal(1)
    // B's copy of the same message is untouched.
    expect((await b.c.get('/api/admin-messages/unread-count')).body.unreadCount).to.equal(2)

    // A cannot read or mark B's message.
    expect((await a.c.patch(`/api/admin-messages/${mB}/read`)).status).to.equal(404)
    expect((await b.c.get('/api/admin-messages/my-messages')).body.messages.map((x: any) => x.message.title)).to.include('Only for B')
    expect((await a.c.get('/api/admin-messages/my-messages')).body.messages.map((x: any) => x.message.title)).to.not.include('Only for B')
    expect((await a.c.patch('/api/admin-messages/x/read')).status).to.equal(400)
  })

  it('keeps messages from unapproved or unpaid agents and from non-agents', async () => {
    const a = await agentClient({ approved: false })
    await message([a.user.id], 'Hidden')
    expect((await a.c.get('/api/admin-messages/my-messages')).status).to.equal(403)
    expect((await a.c.get('/api/admin-messages/unread-count')).status).to.equal(403)
    const admin = await adminClient()
    expect((await admin.get('/api/admin-messages/my-messages')).status).to.equal(403)
    expect((await new Client().get('/api/admin-messages/unread-count')).status).to.equal(401)
  })
})

describe('agents API: registration fee payment (simulator gateway)', () => {
  beforeEach(resetDb)

  async function registeredAgent() {
    const c = new Client()
    const reg = await c.post('/api/agents/register', { name: 'Ama Resale', phone: '0551234567', email: 'ama@example.com', password: 'secret1' })
    expect(reg.status).to.equal(201)
    await c.login('ama@example.com', 'secret1')
    return { c, id: reg.body.agent.id as number }
  }

  it('charges the fee from settings, settles once on approval, and answers SUCCESS on both status calls', async () => {
    await setFee(25)
    const { c, id } = await registeredAgent()
    const missing = await c.post(`/api/agents/${id}/payment/request`, { network: 'MTN' })
    expect(missing.status).to.equal(400)
    expect(missing.body.error).to.equal('Please enter a valid phone number')

    // A client-sent amount never decides.
    const res = await c.post(`/api/agents/${id}/payment/request`, { amount: 0.01, phone_number: '0551234567', network: 'mtn' })
    expect(res.status).to.equal(200)
    expect(res.body).to.include({ paymentStatus: 'PENDING', amount: 25, gateway: 'ussd' })
    expect(res.body.transactionId).to.match(/^\d{15}$/)
    expect(res.body.agent).to.include({ paymentStatus: 'PENDING', paymentTransactionId: res.body.transactionId })
    const payment = await app().db.models.Payment.findOne({ where: { transactionId: res.body.transactionId } })
    expect(payment!.get('amountPesewas')).to.equal(2500)
    expect(payment!.get('purpose')).to.equal('agent_fee')

    // A second click while the prompt is fresh starts no second charge.
    const again = await c.post(`/api/agents/${id}/payment/request`, { phone_number: '0551234567', network: 'MTN' })
    expect(again.status).to.equal(409)

    await app().services.simulator.approve(res.body.transactionId)
    const st = await c.get(`/api/agents/${id}/payment/status`)
    expect(st.status).to.equal(200)
    expect(st.body.paymentStatus).to.equal('SUCCESS')
    const mine = await c.post('/api/agents/payment/status')
    expect(mine.body.agent.paymentStatus).to.equal('SUCCESS')
    expect((await c.post(`/api/agents/${id}/payment/request`, { phone_number: '0551234567', network: 'MTN' })).status).to.equal(409)
    expect(await app().db.models.AuditLog.count({ where: { action: 'PAYMENT_SUCCESS' } })).to.equal(1)
    // The fee is kept: a paid fee is not money to give back.
    const [refunds] = await app().db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM refunds', { type: QueryTypes.SELECT })
    expect(refunds!.n).to.equal(0)

    // Now the admin may approve.
    const admin = await adminClient()
    expect((await admin.patch(`/api/agents/${id}/approve`)).status).to.equal(200)
    expect((await admin.get(`/api/agents/${id}/payment/status`)).body.agent).to.include({ approved: true, paymentStatus: 'SUCCESS' })
  })

  it('marks a declined fee FAILED and retries with a new transaction id', async () => {
    await setFee(25)
    const { c, id } = await registeredAgent()
    // MTN: a Telecel payer would first be asked for a voucher (ADR 0013).
    const first = await c.post(`/api/agents/${id}/payment/request`, { phone_number: '0551234567', network: 'MTN' })
    await app().services.simulator.decline(first.body.transactionId)
    const st = await c.post('/api/agents/payment/status')
    expect(st.body.paymentStatus).to.equal('FAILED')
    const retry = await c.post(`/api/agents/${id}/payment/request`, { phone_number: '0551234567', network: 'MTN' })
    expect(retry.status).to.equal(200)
    expect(retry.body.transactionId).to.not.equal(first.body.transactionId)
    expect(retry.body.agent.paymentStatus).to.equal('PENDING')
    // The old failure arriving late does not touch the new attempt.
    await app().services.payments.refresh(first.body.transactionId)
    expect((await c.post('/api/agents/payment/status')).body.paymentStatus).to.equal('PENDING')
  })

  it('satisfies the fee at once, with no gateway, when the fee is 0 at payment time', async () => {
    await setFee(25)
    const { c, id } = await registeredAgent()
    await setFee(0)
    const res = await c.post(`/api/agents/${id}/payment/request`, {})
    expect(res.status).to.equal(200)
    expect(res.body).to.include({ paymentStatus: 'SUCCESS', gateway: 'none' })
    expect(await app().db.models.Payment.count()).to.equal(0)
  })

  it('refuses fee requests from admins or for someone else', async () => {
    await setFee(25)
    const { id } = await registeredAgent()
    expect((await (await adminClient()).post(`/api/agents/${id}/payment/request`, { phone_number: '0551234567', network: 'MTN' })).status).to.equal(403)
    expect((await new Client().post('/api/agents/payment/status')).status).to.equal(401)
  })
})

describe('agents API: ordering is gated on approval and a SUCCESS fee', () => {
  beforeEach(resetDb)

  it("refuses an unapproved or unpaid agent's order, whatever the client sends, and creates nothing", async () => {
    const pkg: any = await factories.createPackage({ network: 'MTN', priceUserPesewas: 1000, priceAgentPesewas: 700 })
    for (const over of [
      { approved: false },
      { paymentStatus: 'PENDING' },
      { approved: true, paymentStatus: 'FAILED' },
      { approved: false, paymentStatus: null }
    ]) {
      const a = await agentClient(over)
      const forged = {
        packageId: pkg.id,
        recipientNumber: '0241234567',
        payerPhone: '0241234567',
        payerNetwork: 'MTN',
        amount: 0,
        paymentStatus: 'SUCCESS',
        approved: true,
        agentApproved: true
      }
      const res = await a.c.post('/api/orders', forged)
      expect(res.status, JSON.stringify(over)).to.equal(403)
      const two = await a.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', paymentStatus: 'SUCCESS' })
      expect(two.status, JSON.stringify(over)).to.equal(403)
      const pay = await a.c.post('/api/payment/request', { ...forged, type: 'data' })
      expect(pay.status, JSON.stringify(over)).to.equal(403)
    }
    expect(await app().db.models.Order.count()).to.equal(0)
    expect(await app().db.models.Payment.count()).to.equal(0)
  })

  it('charges an approved, paid agent the agent price, and the order shows in its own list only', async () => {
    const pkg: any = await factories.createPackage({ network: 'MTN', priceUserPesewas: 1000, priceAgentPesewas: 700 })
    const a = await agentClient()
    const b = await agentClient()
    const res = await a.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN', amount: 0.01 })
    expect(res.status).to.equal(201)
    expect(res.body.order.amount).to.equal(7)
    expect((await a.c.get('/api/orders?includeExported=true')).body.orders.map((o: any) => o.id)).to.deep.equal([res.body.id])
    expect((await b.c.get('/api/orders?includeExported=true')).body.orders).to.have.length(0)
  })
})

describe('agents API: PIN guesses in parallel', () => {
  beforeEach(resetDb)

  it('counts every parallel guess, so 20 at once still lock after 5', async () => {
    const a = await agentClient()
    const { pin } = (await a.c.post('/api/agents/me/pin/reset')).body
    const wrong = pin === '9999' ? '8888' : String((Number(pin) + 1) % 10000).padStart(4, '0')
    const results = await Promise.all(Array.from({ length: 20 }, async () => (await app().services.ussd.verifyPin(a.agent.id, wrong)).ok))
    expect(results.every((r) => r === false)).to.equal(true)
    expect(await pinLocked(a.agent.id)).to.equal(true)
    expect((await app().services.ussd.verifyPin(a.agent.id, pin)).ok).to.equal(false)
  })
})

describe('agent pages: server-side gates', () => {
  beforeEach(resetDb)

  it('keeps /agent/payment for unapproved or unpaid agents, behind the login and role guard', async () => {
    const loc = (r: { headers: Headers }) => r.headers.get('location')
    expect(loc(await new Client().get('/agent/payment', { Accept: 'text/html' }))).to.equal('/login')
    const buyer = await createUser()
    const pc = new Client()
    await pc.login(buyer.email, buyer.password)
    expect(loc(await pc.get('/agent/payment', { Accept: 'text/html' }))).to.equal('/')
    const active = await agentClient()
    expect(loc(await active.c.get('/agent/payment', { Accept: 'text/html' }))).to.equal('/agent/dashboard')
    const waiting = await agentClient({ approved: false, paymentStatus: null })
    const page = await waiting.c.get('/agent/payment', { Accept: 'text/html' })
    expect(page.status).to.equal(200)
    expect(page.text).to.include('Complete Registration Payment').and.include('Not Started')
  })

  it('renders the registration page for visitors with the fee banner', async () => {
    await setFee(35)
    const page = await new Client().get('/agent/register', { Accept: 'text/html' })
    expect(page.status).to.equal(200)
    expect(page.text).to.include('Become an Agent').and.include('35.00').and.include('What Happens Next?')
  })
})

describe('agents API: fee races', () => {
  beforeEach(resetDb)

  it('starts one charge for parallel pay clicks and settles the fee once for parallel status checks', async () => {
    await setFee(15)
    const a = await agentClient({ approved: false, paymentStatus: null })
    const clicks = await Promise.all(
      Array.from({ length: 5 }, () => a.c.post(`/api/agents/${a.agent.id}/payment/request`, { phone_number: '0241234567', network: 'MTN' }))
    )
    expect(clicks.filter((r) => r.status === 200)).to.have.length(1)
    expect(clicks.filter((r) => r.status === 409)).to.have.length(4)
    expect(await app().db.models.Payment.count()).to.equal(1)
    const txn = clicks.find((r) => r.status === 200)!.body.transactionId
    await app().services.simulator.approve(txn)
    const checks = await Promise.all(Array.from({ length: 10 }, () => a.c.post('/api/agents/payment/status')))
    expect(checks.every((r) => r.status === 200 && r.body.paymentStatus === 'SUCCESS')).to.equal(true)
    expect(await app().db.models.AuditLog.count({ where: { action: 'PAYMENT_SUCCESS', resource: 'PAYMENT' } })).to.be.at.most(1)
    expect(await app().db.models.AuditLog.count({ where: { action: 'PAYMENT_SUCCESS' } })).to.equal(1)
  })
})

describe('agents API: fee by card redirect', () => {
  beforeEach(resetDb)

  it('needs no phone, pays with the account email and answers the checkout URL', async () => {
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { agentRegistrationFee: 30, paymentGateway: 'paystack' })).status).to.equal(200)
    const a = await agentClient({ approved: false, paymentStatus: null })
    const res = await a.c.post(`/api/agents/${a.agent.id}/payment/request`, { amount: 1 })
    expect(res.status).to.equal(200)
    expect(res.body).to.include({ gateway: 'paystack', paymentStatus: 'PENDING', amount: 30 })
    expect(res.body.authorizationUrl).to.be.a('string').and.include(res.body.transactionId)
    const p = await app().db.models.Payment.findOne({ where: { transactionId: res.body.transactionId } })
    expect(p!.get('email')).to.equal(a.user.email)
    expect(p!.get('method')).to.equal('card')
  })
})
