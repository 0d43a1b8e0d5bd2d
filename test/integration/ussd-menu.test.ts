import { expect } from 'chai'
import { createOrder, createPackage } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'
import { AtPhone, atHop, ussdAgent } from '../helpers/ussd.ts'
import { expectFits } from '../helpers/ussd-screens.ts'

describe("USSD channel (Africa's Talking format)", () => {
  beforeEach(resetDb)

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
})
