import { expect } from 'chai'
import { createHash } from 'node:crypto'
import { namedByShape } from '../../models/prepared.ts'
import { insertPaidOrderWith } from '../../server/services/orders/queries.ts'
import { orderKeyOfWritten } from '../../server/services/reseller-api/queries-idempotency.ts'
import { orderPaymentOfWritten } from '../../server/services/wallet/queries.ts'

// A statement built from parts is built and named once per shape: every order sends the same object, so its name is
// never worked out again from a text of several kB built anew (ADR 0083).
describe('statements named once per shape', () => {
  it('builds a shape once and hands back the same statement for the same parts', () => {
    let built = 0
    const of = namedByShape((a: string, b: number, f: (() => string) | undefined) => {
      built++
      return `SELECT ${a}, ${b}, ${f?.() ?? 'none'}`
    })
    const f = () => 'f'
    const first = of('x', 1, f)
    expect(of('x', 1, f)).to.equal(first)
    expect(built).to.equal(1)
    expect(of('x', 2, f)).to.not.equal(first)
    expect(of('x', 1, () => 'f')).to.not.equal(first)
    expect(of('x', 1, undefined).text).to.equal('SELECT x, 1, none')
    expect(built).to.equal(4)
  })

  it("names a statement as its text's name (the name each connection prepares it under is unchanged)", () => {
    const s = namedByShape(() => 'SELECT 1 AS n')()
    expect(s.name).to.equal(`p_${createHash('sha1').update(s.text).digest('base64url').slice(0, 20)}`)
  })

  it('gives a wallet order over the API the same named statement on every order', () => {
    const parts = [orderPaymentOfWritten, 16, 3, orderKeyOfWritten, true] as const
    const first = insertPaidOrderWith(...parts)
    expect(first).to.have.keys('name', 'text')
    expect(insertPaidOrderWith(...parts)).to.equal(first)
    expect(first.text).to.match(/^WITH o AS \(/)
    // Another shape (in a transaction, no refusal column) is another statement.
    expect(insertPaidOrderWith(orderPaymentOfWritten, 16, 3, orderKeyOfWritten, false)).to.not.equal(first)
  })
})
