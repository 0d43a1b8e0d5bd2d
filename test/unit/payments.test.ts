import { expect } from 'chai'
import crypto from 'node:crypto'
import { commissionFor } from '../../server/services/commissions/index.ts'
import { newTransactionId } from '../../server/services/payments/index.ts'
import { mapPaystackStatus, parsePaystackEvent, verifyPaystackSignature } from '../../server/services/payments/paystack.ts'
import { fillTemplate, formatDataSize } from '../../server/services/sms/index.ts'

describe('payments: pure rules', () => {
  it('maps Paystack statuses: only success is SUCCESS; abandoned stays open', () => {
    expect(mapPaystackStatus('success')).to.equal('SUCCESS')
    expect(mapPaystackStatus('failed')).to.equal('FAILED')
    expect(mapPaystackStatus('reversed')).to.equal('FAILED')
    expect(mapPaystackStatus('pay_offline')).to.equal('IN_PROGRESS')
    expect(mapPaystackStatus('send_otp')).to.equal('IN_PROGRESS')
    expect(mapPaystackStatus('abandoned')).to.equal('PENDING')
    expect(mapPaystackStatus(undefined)).to.equal('PENDING')
  })

  it('checks the webhook signature over the exact raw bytes', () => {
    const body = Buffer.from('{"event":"charge.success","data":{"reference":"1"}}')
    const sig = crypto.createHmac('sha512', 'sk').update(body).digest('hex')
    expect(verifyPaystackSignature('sk', body, sig)).to.equal(true)
    expect(verifyPaystackSignature('sk', body, sig.toUpperCase())).to.equal(true)
    expect(verifyPaystackSignature('other', body, sig)).to.equal(false)
    expect(verifyPaystackSignature('sk', Buffer.from(body.toString() + ' '), sig)).to.equal(false)
    expect(verifyPaystackSignature('sk', body, undefined)).to.equal(false)
    expect(verifyPaystackSignature('sk', undefined, sig)).to.equal(false)
    expect(verifyPaystackSignature('sk', body, ['a'])).to.equal(false)
  })

  it('reads every event with its type, reference and a key that is the same when it is sent again', () => {
    const e = parsePaystackEvent({ event: 'charge.success', data: { id: 7, reference: '12', status: 'success', amount: 500, currency: 'GHS' } })!
    expect(e).to.include({ event: 'charge.success', reference: '12', key: 'charge.success:7:success' })
    expect(parsePaystackEvent({ event: 'transfer.success', data: { reference: '12' } })).to.include({ event: 'transfer.success', reference: '12' })
    expect(parsePaystackEvent({ event: 'refund.processed', data: { id: 3, status: 'processed', transaction_reference: '99' } })).to.include({ reference: '99' })
    expect(parsePaystackEvent({ event: 'charge.dispute.create', data: { id: 5, transaction: { reference: '98' } } })).to.include({ reference: '98' })
    const a = parsePaystackEvent({ event: 'x.y', data: {} }, Buffer.from('a'))!
    const b = parsePaystackEvent({ event: 'x.y', data: {} }, Buffer.from('a'))!
    expect(a.key).to.equal(b.key)
    expect(parsePaystackEvent('nonsense')).to.equal(null)
    expect(parsePaystackEvent({ data: {} })).to.equal(null)
  })

  it('commission: percentage rounded to the pesewa, or the fixed amount', () => {
    expect(commissionFor(455, { commissionType: 'PERCENTAGE', commissionPercentage: 10, commissionFixedAmount: 0 })).to.equal(46)
    expect(commissionFor(500, { commissionType: 'FIXED', commissionPercentage: 10, commissionFixedAmount: 0.75 })).to.equal(75)
  })

  it('SMS templates and data sizes', () => {
    expect(formatDataSize(1024)).to.equal('1.0GB')
    expect(formatDataSize(500)).to.equal('500MB')
    expect(fillTemplate('{dataSize} {network} to {recipientNumber} {other}', { dataSize: '1.0GB', network: 'MTN', recipientNumber: '024' })).to.equal(
      '1.0GB MTN to 024 {other}'
    )
  })

  it('transaction ids are 15-digit integers', () => {
    for (let i = 0; i < 50; i++) expect(newTransactionId()).to.match(/^[1-9]\d{14}$/)
  })
})
