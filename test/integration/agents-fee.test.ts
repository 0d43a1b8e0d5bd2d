import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { agentClient, setFee } from '../helpers/agents-api.ts'

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
