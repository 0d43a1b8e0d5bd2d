import { expect } from 'chai'
import { formatCedis, toGhs, toPesewas } from '../../server/lib/money.ts'
import { normalizePhone, phoneVariants } from '../../server/lib/phone.ts'

describe('money and phone helpers', () => {
  it('keeps money in integer pesewas without float drift', () => {
    expect(toPesewas(4.8)).to.equal(480)
    expect(toPesewas(14.5)).to.equal(1450)
    expect(toPesewas(0.1 + 0.2)).to.equal(30)
    expect(toGhs(1450)).to.equal(14.5)
  })
  it('formats cedis as GH₵ with two decimals', () => {
    expect(formatCedis(5)).to.equal('GH₵5.00')
    expect(formatCedis(1234.5)).to.equal('GH₵1,234.50')
    expect(formatCedis(null)).to.equal('-')
  })
  it('treats 0XXXXXXXXX and 233XXXXXXXXX as one number', () => {
    expect(normalizePhone('233241234567')).to.equal('0241234567')
    expect(normalizePhone('024 123 4567')).to.equal('0241234567')
    expect(phoneVariants('0241234567')).to.include.members(['0241234567', '233241234567'])
  })
})
