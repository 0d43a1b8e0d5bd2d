import { expect } from 'chai'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { AtPhone, atHop, ussdAgent } from '../helpers/ussd.ts'
import { LIMIT } from '../helpers/ussd-screens.ts'

describe("USSD channel (Africa's Talking format)", () => {
  beforeEach(resetDb)

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
})
