import { expect } from 'chai'
import { matchesPhone, numbersFromCsv, numbersFromText, pageWindow } from '../../pages/admin/ussd-whitelist/parse.ts'
import { formatSize, gbToMb } from '../../pages/admin/packages/size.ts'
import { parseWhitelistPhone } from '../../server/services/whitelist/index.ts'

describe('back office B helpers', () => {
  it('shows at most 5 whitelist page buttons around the current page', () => {
    expect(pageWindow(1, 3)).to.deep.equal([1, 2, 3])
    expect(pageWindow(1, 12)).to.deep.equal([1, 2, 3, 4, 5])
    expect(pageWindow(7, 12)).to.deep.equal([5, 6, 7, 8, 9])
    expect(pageWindow(12, 12)).to.deep.equal([8, 9, 10, 11, 12])
  })

  it('searches numbers ignoring the 0 / 233 spelling', () => {
    expect(matchesPhone('0241234567', '233241234567')).to.equal(true)
    expect(matchesPhone('0241234567', '0241234567')).to.equal(true)
    expect(matchesPhone('0241234567', '2332412')).to.equal(true)
    expect(matchesPhone('0241234567', '1234')).to.equal(true)
    expect(matchesPhone('0241234567', '0551')).to.equal(false)
    expect(matchesPhone('0241234567', '')).to.equal(true)
    expect(matchesPhone('0241234567', 'abc')).to.equal(false)
  })

  it('reads bulk numbers from text (newline, comma, semicolon) and from the first CSV column', () => {
    expect(numbersFromText('0241234567\n233201234567, 0551234567;0271234567\r\n\n')).to.deep.equal(['0241234567', '233201234567', '0551234567', '0271234567'])
    expect(numbersFromCsv('\uFEFFphone,name\n"0241234567",Ama\n233201234567;Kofi\n\n0551234567')).to.deep.equal(['0241234567', '233201234567', '0551234567'])
  })

  it('accepts only 0XXXXXXXXX or 233XXXXXXXXX and stores the local form', () => {
    expect(parseWhitelistPhone('233241234567')).to.equal('0241234567')
    expect(parseWhitelistPhone('+233 24 123 4567')).to.equal('0241234567')
    expect(parseWhitelistPhone('024-123-4567')).to.equal('0241234567')
    for (const bad of ['241234567', '02412345678', '1234567890', '', 'abc']) expect(parseWhitelistPhone(bad), bad).to.equal(null)
  })

  it('converts package sizes: 1 GB = 1024 MB, rounded; 1024 MB or more shows as GB with 1 decimal', () => {
    expect(gbToMb(0.1)).to.equal(102)
    expect(gbToMb(1.5)).to.equal(1536)
    expect(formatSize(1024)).to.equal('1.0 GB')
    expect(formatSize(500)).to.equal('500 MB')
  })
})
