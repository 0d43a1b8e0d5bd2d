import { expect } from 'chai'
import {
  cediToGhs,
  formatDate,
  formatDay,
  ghsText,
  isActiveAgent,
  networkLabel,
  paymentStatusLabel,
  purposeLabel,
  VOUCHER_RE
} from '../../server/lib/vocabulary.ts'
import { publicOrigin } from '../../server/lib/origin.ts'
import { fillTemplate } from '../../server/services/sms/index.ts'
import { roundDownFigure } from '../../server/services/reports/public-stats.ts'

describe('vocabulary: what people read for the codes', () => {
  it('labels networks, statuses and purposes; an unknown code still reads as a word', () => {
    expect(['MTN', 'TELECEL', 'AIRTELTIGO'].map((n) => networkLabel(n))).to.deep.equal(['MTN', 'Telecel', 'AirtelTigo'])
    expect(paymentStatusLabel('SUCCESS')).to.equal('Successful')
    expect(paymentStatusLabel('IN_PROGRESS')).to.equal('In Progress')
    expect(paymentStatusLabel(null, 'Not Started')).to.equal('Not Started')
    expect(paymentStatusLabel('SOME_NEW_STATE')).to.equal('Some new state')
    expect(purposeLabel('wallet_topup')).to.equal('Wallet top-up')
  })

  it('fills the SMS templates with the network as people write it, and money for handsets as GHS', () => {
    expect(
      fillTemplate('Your {dataSize} {network} data to {recipientNumber} has been delivered.', {
        dataSize: '1.0GB',
        network: 'TELECEL',
        recipientNumber: '0201112222'
      })
    ).to.equal('Your 1.0GB Telecel data to 0201112222 has been delivered.')
    expect(ghsText(450)).to.equal('GHS 4.50')
    expect(cediToGhs('Minimum is GH₵5.00 or GH₵ 6.00')).to.equal('Minimum is GHS 5.00 or GHS 6.00')
  })

  it('writes dates day first in Ghana time', () => {
    const d = new Date('2026-11-03T14:05:00Z')
    expect(formatDay(d)).to.equal('03/11/2026')
    expect(formatDate(d)).to.equal('03/11/2026, 14:05')
    expect(formatDay('2026-10-28')).to.equal('28/10/2026')
  })

  it('rounds the home page figures down, never up', () => {
    expect([99, 123, 1999, 15_678].map(roundDownFigure)).to.deep.equal([0, 100, 1900, 15_000])
  })

  it('an agent is active when approved AND the fee is paid, never one without the other', () => {
    expect(isActiveAgent({ approved: true, paymentStatus: 'SUCCESS' })).to.equal(true)
    expect(
      [
        { approved: false, paymentStatus: 'SUCCESS' },
        { approved: true, paymentStatus: 'PENDING' },
        { approved: true, paymentStatus: null },
        null,
        undefined
      ].map(isActiveAgent)
    ).to.deep.equal([false, false, false, false, false])
  })

  it('a voucher is the six digits *110# gives', () => {
    expect(['123456', '12345', '1234567', '12345a', ''].map((v) => VOUCHER_RE.test(v))).to.deep.equal([true, false, false, false, false])
  })

  it('the public origin is PUBLIC_URL without its trailing slashes, else the host asked for, else empty', () => {
    expect(publicOrigin('https://datahub.example//')).to.equal('https://datahub.example')
    expect(publicOrigin(undefined, { protocol: 'https', host: 'shop.example:8443' })).to.equal('https://shop.example:8443')
    expect(publicOrigin(undefined, { host: null })).to.equal('http://localhost')
    expect(publicOrigin('')).to.equal('')
  })
})
