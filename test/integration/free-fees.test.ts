import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

const setSettings = (s: Record<string, unknown>) => app().services.settings.update(s, {})
const form = { fullName: 'Ama Mensah', ghCard: 'GHA-123456789-0', phone: '0241112222' }

describe('free fees are free', () => {
  beforeEach(resetDb)

  it('registers for AFA with a fee of 0 without a payer phone, e-mail or gateway', async () => {
    await setSettings({ afaRegistrationFee: 0 })
    const c = new Client()
    const pay = await c.post('/api/payment/request', { type: 'afa_registration', ...form, transactionId: '123456789012345' })
    expect(pay.status, JSON.stringify(pay.body)).to.equal(200)
    expect(pay.body.paymentStatus).to.equal('SUCCESS')
    const reg = await c.post('/api/afa', { ...form, paymentStatus: 'SUCCESS', paymentTransactionId: pay.body.transactionId })
    expect(reg.status, JSON.stringify(reg.body)).to.be.oneOf([200, 201])
    const [row] = (await app().db.sequelize.query('SELECT amount_pesewas, payment_status FROM afa_registrations')) as [
      { amount_pesewas: number; payment_status: string }[],
      unknown
    ]
    expect(row).to.have.length(1)
    expect(row[0]).to.deep.include({ amount_pesewas: 0, payment_status: 'SUCCESS' })
  })

  it('still asks for the payer phone when the AFA fee is not 0', async () => {
    await setSettings({ afaRegistrationFee: 5 })
    const res = await new Client().post('/api/payment/request', { type: 'afa_registration', ...form })
    expect(res.status).to.equal(400)
    expect(res.body.error).to.equal('Please enter payment phone number')
  })

  it('shows no placeholder text and no payment fields on the AFA page when the fee is 0', async () => {
    await setSettings({ afaRegistrationFee: 0, whatsappNumber: '' })
    const html = await (await fetch(app().url + '/afa', { headers: { 'User-Agent': 'Mozilla/5.0' } })).text()
    expect(html).not.to.include('Support contact details will be shown here when available')
    expect(html).not.to.include('Payment Phone Number')
    expect(html).to.include('Registration is free')
  })

  it('never mentions paying a fee on the agent registration page when the fee is 0', async () => {
    await setSettings({ agentRegistrationFee: 0 })
    const html = await (await fetch(app().url + '/agent/register', { headers: { 'User-Agent': 'Mozilla/5.0' } })).text()
    expect(html).to.include('Registration is free right now')
    expect(html).not.to.include('pay the registration fee')
  })
})
