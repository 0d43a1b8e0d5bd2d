import { expect } from 'chai'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// A visitor's checker purchase names no account, and one paid by card names no phone: neither is a key, so
// visitors never share a per-account or a per-phone bucket (each would refuse everyone after 60 or 10 buys).
describe('limits: visitors buying checkers share no bucket', function () {
  this.timeout(120_000)
  beforeEach(resetDb)

  it('61 visitors buy by mobile money and 11 by card, each from its own address: none refused', async () => {
    const productId = await checkerWithStock(await adminClient(), 1)
    const buy = (i: number, by: Record<string, unknown>) =>
      app().services.vouchers.buy({ productId, quantity: 1, ...by }, { ip: `10.9.${Math.floor(i / 250)}.${i % 250}` })
    for (let i = 0; i < 61; i++) {
      const p = await buy(i, { payFrom: 'momo', payerPhone: `024${String(6000000 + i)}`, payerNetwork: 'MTN' })
      expect(p.transactionId, `momo buyer ${i + 1}`).to.be.a('string')
    }
    for (let i = 61; i < 72; i++) {
      const p = await buy(i, { payFrom: 'card', email: `buyer${i}@example.com` })
      expect(p.transactionId, `card buyer ${i - 60}`).to.be.a('string')
    }
  })
})
