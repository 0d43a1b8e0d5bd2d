import { expect } from 'chai'
import {
  formatPesewas,
  ghsFixed,
  ghsText,
  isWholePesewas,
  parseGhs,
  percentOf,
  percentage,
  pesewasFixed,
  roundGhs,
  toGhs,
  toPesewas
} from '../../server/lib/money.ts'

describe('money helpers (pesewas inside, GHS outside)', () => {
  it('parses what a person types into pesewas', () => {
    expect(parseGhs('20')).to.equal(2000)
    expect(parseGhs('20.5')).to.equal(2050)
    expect(parseGhs('20.50')).to.equal(2050)
    expect(parseGhs('0.01')).to.equal(1)
    expect(parseGhs(' 4.35 ')).to.equal(435)
  })
  it('refuses amounts that are not plain non-negative GHS with at most 2 decimals', () => {
    for (const bad of ['20.505', '-1', 'abc', '', '   ', '1e3', '20.', '.5', '20,50', null, undefined]) expect(parseGhs(bad), String(bad)).to.equal(null)
  })
  it('formats pesewas for the web (GH₵) and for SMS and USSD (GHS)', () => {
    expect(formatPesewas(2000)).to.equal('GH₵20.00')
    expect(formatPesewas(123450)).to.equal('GH₵1,234.50')
    expect(formatPesewas(null)).to.equal('-')
    expect(ghsText(2000)).to.equal('GHS 20.00')
    expect(ghsText(435)).to.equal('GHS 4.35')
    expect(pesewasFixed(5)).to.equal('0.05')
    expect(ghsFixed(4.5)).to.equal('4.50')
  })
  it('converts both ways without float drift', () => {
    expect(toPesewas(4.35)).to.equal(435)
    expect(toGhs(435)).to.equal(4.35)
    expect(toGhs(null)).to.equal(null)
    expect(roundGhs(4.8 - 4.35)).to.equal(0.45)
    expect(isWholePesewas(20.5)).to.equal(true)
    expect(isWholePesewas(20.505)).to.equal(false)
  })
  it('takes percents of money in whole pesewas, and percents of counts', () => {
    expect(percentOf(1999, 5)).to.equal(100)
    expect(percentOf(1999, 5, Math.floor)).to.equal(99)
    expect(percentage(2, 3)).to.equal(67)
    expect(percentage(1, 0)).to.equal(0)
  })
})
