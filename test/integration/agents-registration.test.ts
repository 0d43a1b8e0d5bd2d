import { expect } from 'chai'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { createAgent, createUser, agentClient, setFee } from '../helpers/agents-api.ts'

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
