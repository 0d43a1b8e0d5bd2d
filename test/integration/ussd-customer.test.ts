import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { Running } from '../../server/index.ts'
import { bootOnPaystack, postPaystackWebhook } from '../helpers/instance.ts'
import { startFakePaystack, type FakePaystack } from '../helpers/fake-paystack.ts'
import { createPackage } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'
import { ussdAgent } from '../helpers/ussd.ts'

const LIMIT = 182

// Customers dial the agents' code: an instance on Paystack (a local fake speaking its protocol).
describe('customer USSD menu (fake Paystack)', function () {
  this.timeout(60_000)
  let fake: FakePaystack
  let ps: Running
  const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })

  /** One dial in the Africa's Talking way: every answer so far joined by '*'. */
  const dialer = (phone: string, networkCode: string) => {
    const inputs: string[] = []
    const sessionId = `ATUid_${Math.random().toString(36).slice(2)}`
    return async (input?: string) => {
      if (input !== undefined) inputs.push(input)
      const res = await fetch(`${ps.url}/ussd/africastalking`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sessionId, serviceCode: '*920*44#', phoneNumber: phone, networkCode, text: inputs.join('*') }).toString()
      })
      const body = await res.text()
      expect(body.length, `screen too long: ${body}`).to.be.at.most(LIMIT)
      return body
    }
  }
  const customersOn = () => ps.services.settings.update({ ussdCustomerEnabled: true }, {})
  const postWebhook = (body: string, signature: string) => postPaystackWebhook(ps, body, signature)

  before(async () => {
    fake = await startFakePaystack('sk_test_cust')
    ps = await bootOnPaystack(fake, { PAYSTACK_TIMEOUT_MS: 1000 })
  })
  after(async () => {
    await ps?.stop()
    await fake?.close()
  })
  beforeEach(async () => {
    await resetDb()
    ps.services.settings.invalidate()
    fake.requests.length = 0
    fake.txns.clear()
    fake.otpProviders.clear()
    fake.trouble(null)
    await app().db.models.Package.destroy({ where: {} })
  })

  it('is off by default: a caller who is no agent is refused as before', async () => {
    const hop = dialer('+233241160001', '62001')
    expect(await hop()).to.equal('END No agent account uses this number. Register as an agent on our website first.')
  })

  it('a caller buys for another number: the END comes before the slow gateway answers the charge; the payer approves, the order is Delivered and one SMS says so', async () => {
    await customersOn()
    await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    const hop = dialer('+233241160002', '62001')
    expect(await hop()).to.equal('CON Buy data bundles\n1. Buy data for my number\n2. Buy for another number\n3. My last orders\n4. Help\n0. Exit')
    expect(await hop('2')).to.equal('CON Enter the number to receive the data:\n0 Back 00 Home')
    expect(await hop('0551234567')).to.equal('CON Choose network\n1. MTN\n2. Telecel\n3. AirtelTigo\n0 Back 00 Home')
    expect(await hop('1')).to.equal('CON MTN bundles:\n1. 1.0GB GHS 5.00\n0 Back 00 Home')
    expect(await hop('1')).to.equal('CON Buy 1.0GB MTN data\nTo: 0551234567\nPrice: GHS 5.00\n1. Confirm, pay by mobile money\n0 Back 00 Home')
    fake.trouble({ kind: 'slow', ms: 20_000 })
    const done = await hop('1')
    expect(done).to.equal('END A payment prompt is coming to your phone. Approve it to pay GHS 5.00 for 1.0GB MTN to 0551234567.')
    // Structural proof that the hop did not wait on the gateway: no charge had even been asked for.
    expect(fake.requests.filter((r) => r.path === '/charge')).to.have.length(0)
    const [order] = await sql<any>(`SELECT * FROM orders`)
    expect(order).to.include({
      channel: 'ussd',
      user_id: null,
      agent_id: null,
      recipient_number: '0551234567',
      payment_phone_number: '0241160002',
      amount_pesewas: 500,
      payment_status: 'PENDING'
    })

    // The queued job starts the charge after the session: the gateway is slow, the payment stays pending.
    await ps.services.queue.drain()
    const charges = fake.requests.filter((r) => r.path === '/charge')
    expect(charges).to.have.length(1)
    expect(charges[0]!.body).to.include({ amount: 500, reference: order.payment_transaction_id })

    // The payer approves the prompt; Paystack's signed webhook arrives.
    fake.complete(order.payment_transaction_id, 'success')
    const { body, signature } = fake.webhook(order.payment_transaction_id)
    expect((await postWebhook(body, signature)).status).to.equal(200)
    await ps.services.queue.drain()
    const [after] = await sql<any>(`SELECT payment_status, delivery_status FROM orders_view WHERE id = :id`, { id: order.id })
    expect(after).to.deep.equal({ payment_status: 'SUCCESS', delivery_status: 'DELIVERED' })
    const texts = await sql<{ to_phone: string; message: string }>(`SELECT to_phone, message FROM sms_outbox WHERE message LIKE '%delivered%'`)
    expect(texts).to.deep.equal([{ to_phone: '0241160002', message: 'Your 1.0GB MTN data to 0551234567 has been delivered.' }])

    // "My last orders" lists it for this calling number.
    const again = dialer('+233241160002', '62001')
    await again()
    expect(await again('3')).to.equal('CON Your last orders:\n1.0GB MTN ..4567 Paid\n0 Back 00 Home')
  })

  it('a Telecel caller gives the voucher in the same dial and the payment ends SUCCESS', async () => {
    await customersOn()
    fake.otpProviders.add('vod')
    await createPackage({ network: 'TELECEL', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
    const hop = dialer('+233501160003', '62002')
    await hop()
    await hop('1') // my number
    await hop('2') // Telecel
    expect(await hop('1')).to.contain('To: 0501160003\nPrice: GHS 9.00')
    expect(await hop('1')).to.match(/^CON Telecel Cash needs a voucher\./)
    expect(await hop('12')).to.contain('Enter the 6-digit voucher.')
    expect(await hop('123456')).to.match(/^END A payment prompt is coming to your phone\./)
    await ps.services.queue.drain()
    const [p] = await sql<{ transaction_id: string; details: any }>(`SELECT transaction_id, details FROM payments`)
    expect(fake.requests.filter((r) => r.path === '/charge/submit_otp').map((r) => r.body)).to.deep.equal([{ otp: '123456', reference: p!.transaction_id }])
    fake.complete(p!.transaction_id, 'success')
    await sql(`UPDATE payments SET last_checked_at = now() - interval '1 minute' WHERE transaction_id = :tid RETURNING id`, { tid: p!.transaction_id })
    await ps.services.payments.refresh(p!.transaction_id)
    expect((await ps.services.payments.load(p!.transaction_id))!.status).to.equal('SUCCESS')
  })

  it('pages long bundle lists with 98 More and 0 back a page, and keeps to the per-number order limit', async () => {
    await customersOn()
    for (let i = 1; i <= 9; i++) await createPackage({ network: 'AIRTELTIGO', sizeMb: 1024 * i, priceUserPesewas: 100 * i })
    const hop = dialer('+233271160004', '62003')
    await hop()
    await hop('1')
    const first = await hop('3')
    expect(first).to.match(/^CON AirtelTigo bundles: \(1\/2\)\n1\. 1\.0GB GHS 1\.00\n/)
    expect(first).to.contain('\n98 More\n0 Back 00 Home')
    const second = await hop('98')
    expect(second).to.match(/\(2\/2\)\n1\. \d+\.0GB/)
    expect(second).to.not.contain('98 More')
    expect(await hop('0')).to.equal(first)
    expect(await hop('0')).to.match(/^CON Choose network/)

    // Ten orders in ten minutes per paying number (the web's rule): the eleventh dial is told to wait.
    await createPackage({ network: 'MTN', sizeMb: 500, priceUserPesewas: 300 })
    const buy = async () => {
      const d = dialer('+233241160005', '62001')
      await d()
      await d('1')
      await d('1')
      await d('1')
      return d('1')
    }
    for (let i = 0; i < 10; i++) expect(await buy()).to.match(/^END A payment prompt/)
    expect(await buy()).to.equal('END Too many requests. Please wait a few minutes and try again.')
    expect(Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM orders WHERE payment_phone_number = '0241160005'`))[0]!.n)).to.equal(10)
  })

  it('a customer dial never reaches the agent menu or a wallet, whatever is typed', async () => {
    await customersOn()
    await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    // Not approved: an agent account that may not use the agent menu gets the customer's.
    await ussdAgent({ phone: '0241160006', approved: false })
    const hop = dialer('+233241160006', '62001')
    const screens = [await hop()]
    for (const input of ['4826', '4', '1', '2', '5', '00', '1', '1', '1', '2', '00', '9', '8']) screens.push(await hop(input))
    for (const s of screens) {
      expect(s).to.not.match(/PIN|Wallet|Earnings|payout|agent/i)
    }
    expect(screens.at(-1)).to.match(/^CON Invalid choice\.\nBuy data bundles/)
  })

  it('an agent keeps the PIN menu, and a locked agent stays locked with the customer menu on', async () => {
    await customersOn()
    const { agent, pin } = await ussdAgent({ phone: '0241160007' })
    const hop = dialer('+233241160007', '62001')
    expect(await hop()).to.match(/Enter your 4-digit agent PIN/)
    expect(await hop(pin)).to.contain('4. Earnings and payout')

    const guess = dialer('+233241160007', '62001')
    await guess()
    for (let i = 0; i < 4; i++) expect(await guess('0000')).to.contain('Wrong PIN')
    expect(await guess('0000')).to.match(/^END Wrong PIN\. USSD is locked/)
    expect(await dialer('+233241160007', '62001')()).to.match(/^END Too many wrong PINs\. USSD is locked\./)
    expect((await app().db.models.Agent.findByPk(agent.id))!.get('pinLockedUntil')).to.be.instanceOf(Date)
  })
})
