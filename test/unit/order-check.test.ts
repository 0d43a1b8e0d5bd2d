import { expect } from 'chai'
import { checkOrder, orderSchema } from '../../server/services/orders/input.ts'

const refusal = (raw: unknown) => {
  try {
    checkOrder(raw)
  } catch (err) {
    return (err as Error).message
  }
  return null
}

describe("an order's check: joi's per-field preferences merged once, not per order (ADR 0057)", () => {
  it('the order schema carries no preferences of its own and is run without options, so joi keeps what it merged for each field', () => {
    // With preferences given per call (or on the root, which hands its merged copy down), joi merges every
    // field's own messages into them again on each validation; with its defaults it keeps the merge from the first.
    expect(orderSchema.describe().preferences).to.equal(undefined)
    const validate = orderSchema.validate
    const calls: number[] = []
    orderSchema.validate = function (this: typeof orderSchema, ...args: Parameters<typeof validate>) {
      calls.push(args.length)
      return validate.apply(this, args)
    } as typeof validate
    try {
      checkOrder({ packageId: 1, recipientNumber: '0241234567' })
    } finally {
      orderSchema.validate = validate
    }
    expect(calls).to.deep.equal([1])
  })

  it('fields it does not know are dropped, typed values come back in their checked form, and the first bad field answers with its words', () => {
    expect(checkOrder({ packageId: 1, recipientNumber: '024 123 4567', payerPhone: '0241234567', isAdmin: true, amount: 0.01 })).to.deep.equal({
      packageId: 1,
      recipientNumber: '0241234567',
      payerPhone: '0241234567',
      channel: 'web',
      payFrom: 'gateway'
    })
    expect(refusal({ packageId: 'x', recipientNumber: '123', network: 'ORANGE' })).to.equal('Please select a package')
    expect(refusal({ packageId: 1, network: 'ORANGE', recipientNumber: '123' })).to.equal('Network must be MTN, TELECEL or AIRTELTIGO')
    expect(refusal({ packageId: 1, recipientNumber: '0241234567', price: 0, payFrom: 'card' })).to.equal('payFrom must be wallet or gateway')
    expect(refusal({ packageId: 1, recipientNumber: '0241234567', price: 0 })).to.equal('price must be the amount in GHS you confirmed')
    expect(refusal({ recipientNumber: '0241234567' })).to.equal('Please select a package')
    expect(refusal({})).to.equal('Please select package and enter recipient number')
  })
})
