import { expect } from 'chai'
import { ussdAgent } from '../helpers/ussd.ts'
import { createPackage } from '../helpers/factories.ts'
import { paystackShop } from '../helpers/paystack-shop.ts'

describe('money safety with Paystack (fake Paystack server)', function () {
  this.timeout(60_000)
  const shop = paystackShop()
  const { client, sql, allowCheck, payment, order } = shop

  /** One dial on the Paystack instance's USSD endpoint (Africa's Talking format). */
  const dialer = (phone: string, networkCode: string) => {
    const inputs: string[] = []
    const sessionId = `ATUid_${Math.random().toString(36).slice(2)}`
    return async (input?: string) => {
      if (input !== undefined) inputs.push(input)
      const started = performance.now()
      const res = await fetch(`${shop.ps.url}/ussd/africastalking`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sessionId, serviceCode: '*920*44#', phoneNumber: phone, networkCode, text: inputs.join('*') }).toString()
      })
      return { text: await res.text(), ms: performance.now() - started }
    }
  }

  describe('USSD never waits on the gateway', () => {
    it('the confirm hop answers at once while the gateway takes 20 s to answer the charge', async () => {
      const { pin } = await ussdAgent({ phone: '0241150001' })
      const hop = dialer('+233241150001', '62001')
      await hop()
      for (const input of [pin, '1', '1', '1', '1']) await hop(input)
      shop.fake.trouble({ kind: 'slow', ms: 20_000 })
      const done = await hop('1')
      expect(done.text).to.match(/^END Order placed: .* A payment prompt for GHS [\d.]+ is coming to 0241150001/)
      // The proof is structural (no timed assertion): the hop answered before any charge reached the gateway.
      console.log(`      (confirm hop answered in ${done.ms.toFixed(0)} ms)`)
      expect(shop.fake.requests.filter((r) => r.path === '/charge')).to.have.length(0)
      const [p] = await sql<{ transaction_id: string; status: string }>(`SELECT transaction_id, status FROM payments`)
      expect(p!.status).to.equal('PENDING')
      await shop.ps.services.queue.drain() // the background charge: slow at the gateway, so unclear; stays pending
      expect(shop.fake.requests.filter((r) => r.path === '/charge')).to.have.length(1)
      expect((await payment(p!.transaction_id)).status).to.be.oneOf(['PENDING', 'IN_PROGRESS'])
    })

    it('a Telecel payer gives the voucher in the same dial; the payment ends SUCCESS', async () => {
      shop.fake.otpProviders.add('vod')
      const { pin } = await ussdAgent({ phone: '0501150002' })
      await createPackage({ network: 'TELECEL', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
      const hop = dialer('+233501150002', '62002')
      await hop()
      await hop(pin)
      await hop('1') // Buy data
      const networks = await hop('2') // Telecel bundles
      expect(networks.text).to.contain('2.0GB')
      await hop('1')
      const confirm = await hop('1') // my number
      expect(confirm.text).to.contain('Confirm purchase')
      const ask = await hop('1')
      expect(ask.text).to.match(/^CON Telecel Cash needs a voucher\./)
      expect((await hop('12')).text).to.contain('Enter the 6-digit voucher.')
      const done = await hop('123456')
      expect(done.text).to.match(/^END Order placed/)
      await shop.ps.services.queue.drain()
      const [p] = await sql<{ transaction_id: string; details: any }>(`SELECT transaction_id, details FROM payments`)
      expect(shop.fake.requests.filter((r) => r.path === '/charge/submit_otp').map((r) => r.body)).to.deep.equal([
        { otp: '123456', reference: p!.transaction_id }
      ])
      expect(p!.details.voucher).to.equal(undefined)
      shop.fake.complete(p!.transaction_id, 'success')
      await allowCheck(p!.transaction_id)
      await shop.ps.services.payments.refresh(p!.transaction_id)
      expect((await payment(p!.transaction_id)).status).to.equal('SUCCESS')
    })
  })

  describe('vouchers', () => {
    it('Telecel: the gateway asks for a voucher, the payer types it, and the payment ends SUCCESS', async () => {
      shop.fake.otpProviders.add('vod')
      const o = await order({ payerPhone: '0501234567', payerNetwork: 'TELECEL' })
      const tid = o.payment.transactionId
      expect(o.payment.needsCode).to.equal('otp')
      expect(o.payment.message).to.match(/\*110#/)
      const bad = await client().post(`/api/payment/${tid}/code`, { code: '000000' })
      expect(bad.status).to.equal(200)
      expect(bad.body.needsCode).to.equal('otp')
      expect(bad.body.message).to.match(/invalid voucher/i)
      expect((await client().post(`/api/payment/${tid}/code`, { code: '' })).status).to.equal(400)
      const ok = await client().post(`/api/payment/${tid}/code`, { code: '123456' })
      expect(ok.body.needsCode).to.equal(null)
      expect(shop.fake.requests.filter((r) => r.path === '/charge/submit_otp').map((r) => r.body)).to.deep.include({ otp: '123456', reference: tid })
      shop.fake.complete(tid, 'success')
      await allowCheck(tid)
      expect((await client().get(`/api/payment/status/${tid}`)).body.paymentStatus).to.equal('SUCCESS')
    })
  })
})
