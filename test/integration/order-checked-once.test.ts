import { expect } from 'chai'
import { requestSchema } from '../../server/services/payments/request.ts'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

/** Runs `fn` counting how often the payment request's schema checks a request. */
async function schemaRunsOf(fn: () => Promise<void>): Promise<number> {
  const validate = requestSchema.validate
  let runs = 0
  requestSchema.validate = function (this: typeof requestSchema, ...args: Parameters<typeof validate>) {
    runs++
    return validate.apply(this, args)
  } as typeof validate
  try {
    await fn()
    return runs
  } finally {
    requestSchema.validate = validate
  }
}

describe("a visitor's order is checked once (ADR 0057)", () => {
  beforeEach(resetDb)

  const order = (c: Client, packageId: number, extra: Record<string, unknown> = {}) =>
    c.post('/api/orders', { packageId, recipientNumber: '0241234567', payerPhone: '0241234567', payerNetwork: 'MTN', ...extra })

  it("its payment is not run through the payment request's schema again: every field the buyer typed passed the order's own check", async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    let placed: Awaited<ReturnType<typeof order>> | undefined
    const runs = await schemaRunsOf(async () => {
      placed = await order(visitor, pkg.id, { email: 'payer@example.com' })
    })
    expect(placed!.status, placed!.text).to.equal(201)
    expect(placed!.body.payment).to.include({ paymentStatus: 'PENDING' })
    expect(runs).to.equal(0)
  })

  it('what the payment schema refused is still refused, with the same words, and nothing is kept', async () => {
    const pkg = await createPackage()
    const visitor = new Client()
    const cases: [Record<string, unknown>, string][] = [
      [{ email: `${'x'.repeat(250)}@example.com` }, 'email length must be less than or equal to 254 characters long'],
      [{ payerNetwork: 'ORANGE' }, 'Please select a payment network (MTN, TELECEL or AIRTELTIGO)'],
      [{ payerPhone: '12345' }, 'Please enter a valid phone number'],
      [{ transactionId: 'abc' }, 'Transaction ID must be a whole number of up to 15 digits'],
      [{ payerPhone: 233241234567 }, 'payerPhone must be a string']
    ]
    for (const [extra, message] of cases) {
      const res = await order(visitor, pkg.id, extra)
      expect(res.status, JSON.stringify(extra)).to.equal(400)
      expect(res.body.error, JSON.stringify(extra)).to.equal(message)
    }
    const orders = await visitor.get('/api/orders?phoneNumber=0241234567')
    expect(orders.body).to.deep.equal([])
  })
})
