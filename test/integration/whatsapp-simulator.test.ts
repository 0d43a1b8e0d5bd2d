import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

// The simulator's customer (no WhatsApp account configured): its input is checked once, at the edge.
describe('WhatsApp simulator: the customer', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('refuses a number that is not 9 to 15 digits, then a message with neither text nor a tapped reply, in those words', async () => {
    const c = new Client()
    const refused = await Promise.all(
      [{}, { from: '12-34', text: 'hi' }, { from: '0241170001' }, { from: '0241170001', text: '   ', replyId: '' }].map((b) =>
        c.post('/api/whatsapp/simulator/messages', b)
      )
    )
    expect(refused.map((r) => [r.status, r.body.error])).to.deep.equal([
      [400, 'Enter the customer phone number (digits)'],
      [400, 'Enter the customer phone number (digits)'],
      [400, 'Type a message'],
      [400, 'Type a message']
    ])
  })

  it('a local number types "hi": the chat is its 233 number and the bot answers at once', async () => {
    const c = new Client()
    const res = await c.post('/api/whatsapp/simulator/messages', { from: '024 117 0001', text: 'hi' })
    expect(res.status).to.equal(200)
    expect(res.body.waId).to.equal('233241170001')
    expect(res.body.messages.map((m: { direction: string; sentBy: string }) => `${m.direction}:${m.sentBy}`)).to.deep.equal([
      'in:customer',
      'out:bot',
      'out:bot'
    ])
    expect(res.body.messages[0].text).to.equal('hi')
    const again = await c.get('/api/whatsapp/simulator/messages?from=0241170001')
    expect(again.body.messages).to.deep.equal(res.body.messages)
  })
})
