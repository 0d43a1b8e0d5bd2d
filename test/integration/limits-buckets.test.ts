import { expect } from 'chai'
import { Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// The request limits (services/limits `take`) through the routes that charge them: which buckets a
// request is charged to, and the wait a refusal names.
describe('request limits: the buckets charged and the wait named', function () {
  this.timeout(120_000)
  beforeEach(resetDb)

  it("visitors are charged to no per-account bucket: more of them than one account's 60 orders in 10 minutes all order", async () => {
    const packageId = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id')
    for (let n = 0; n < 61; n++) {
      const phone = `02450${String(n).padStart(5, '0')}`
      const res = await new Client().post(
        '/api/orders',
        { packageId, recipientNumber: phone, payerPhone: phone, payerNetwork: 'MTN' },
        { 'X-Forwarded-For': `10.61.${n >> 8}.${n & 255}` }
      )
      expect(res.status, `visitor ${n}`).to.equal(201)
    }
  })

  it("a refused lookup waits for what is left of the number's 10-minute window, which its first lookup began", async () => {
    const waits: Array<string | null> = []
    for (let n = 0; n < 32; n++) {
      const res = await new Client().get('/api/orders?phoneNumber=0245000001', { 'X-Forwarded-For': `10.62.0.${n}` })
      if (res.status === 429) waits.push(res.headers.get('retry-after'))
    }
    // 30 lookups of one number in the window, then each one is refused.
    expect(waits).to.have.length(2)
    for (const w of waits) expect(Number(w)).to.be.within(480, 600)
  })
})
