import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'
import { createUser, buy } from '../helpers/storefront-api.ts'

// Storefront API against the built-in payment simulator (no Paystack key in the test app).

describe('storefront API: order lookup by phone', () => {
  beforeEach(resetDb)

  it('finds orders by recipient or paying phone in either spelling, with packageName and paymentPhoneNumber', async () => {
    await buy({ recipientNumber: '0201112222' })
    await buy({ recipientNumber: '0555000111', payerPhone: '0201112222' })
    await buy({ recipientNumber: '0555000999', payerPhone: '0555000999' })
    const res = await new Client().get('/api/orders?phoneNumber=233201112222')
    expect(res.status).to.equal(200)
    expect(res.body).to.have.length(2)
    expect(res.body[0]).to.include({
      recipientNumber: '0555000111',
      paymentPhoneNumber: '*******222',
      packageName: '1GB daily',
      network: 'MTN',
      amount: 5,
      paymentStatus: 'PENDING'
    })
    expect(res.body[0].paymentTransactionId).to.match(/^\*{12}\d{3}$/)
    expect((await new Client().get('/api/orders?phoneNumber=0279999999')).body).to.deep.equal([])
  })

  it('shows the paying phone and transaction id whole only to the browser that paid (or the buyer signed in); anyone else sees the last 3 digits', async () => {
    const paid = await buy({ recipientNumber: '0201112222', payerPhone: '0241239876' })
    const tid = paid.body.order.paymentTransactionId as string
    const lookup = async (client: Client) => (await client.get('/api/orders?phoneNumber=0201112222')).body[0]

    const stranger = await lookup(new Client())
    expect(stranger).to.include({ recipientNumber: '0201112222', paymentPhoneNumber: '*******876', paymentTransactionId: `${'*'.repeat(12)}${tid.slice(-3)}` })
    expect(JSON.stringify(stranger)).to.not.include('0241239876').and.not.include(tid)

    expect(await lookup(paid.client)).to.include({ paymentPhoneNumber: '0241239876', paymentTransactionId: tid })

    // A signed-in buyer sees their own order whole from any browser.
    await createUser({ email: 'ama@example.com', password: 'Passw0rd!long' })
    const signedIn = new Client()
    await signedIn.login('ama@example.com', 'Passw0rd!long')
    const mine = await buy({ recipientNumber: '0201112222', payerPhone: '0241230000' }, signedIn)
    expect(mine.status).to.equal(201)
    const other = new Client()
    await other.login('ama@example.com', 'Passw0rd!long')
    const seen = (await other.get('/api/orders?phoneNumber=0201112222')).body
    expect(seen.find((o: any) => o.id === mine.body.order.id)).to.include({ paymentPhoneNumber: '0241230000' })
    expect(seen.find((o: any) => o.id === paid.body.order.id)).to.include({ paymentPhoneNumber: '*******876' })
  })

  it('finds an order however its number was typed, at purchase or at lookup', async () => {
    // Bought with the 233 spelling; stored as the local number.
    await buy({ recipientNumber: '233201112222' })
    for (const typed of ['0201112222', '233201112222', '201112222', '+233 20 111 2222', '020-111-2222']) {
      const res = await new Client().get(`/api/orders?phoneNumber=${encodeURIComponent(typed)}`)
      expect(res.status, typed).to.equal(200)
      expect(res.body, typed).to.have.length(1)
      expect(res.body[0].recipientNumber, typed).to.equal('0201112222')
    }
    const bad = await new Client().get('/api/orders?phoneNumber=0241')
    expect(bad.status).to.equal(400)
    expect(bad.body.error).to.equal('Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567')
  })

  it('refuses a blank or non-digit phone', async () => {
    const blank = await new Client().get('/api/orders?phoneNumber=%20')
    expect(blank.status).to.equal(400)
    expect(blank.body.error).to.equal('Please enter a phone number')
    expect((await new Client().get('/api/orders?phoneNumber=abc')).status).to.equal(400)
    expect((await new Client().get('/api/orders?phoneNumber=1&phoneNumber=2')).status).to.equal(400)
  })
})
