import { expect } from 'chai'
import { INVALID_MOBILE, networkMismatchWarning, networkOfPhone, parseGhanaMobile, phoneVariants } from '../../server/lib/phone.ts'

describe('Ghanaian mobile numbers', () => {
  it('accepts 0 plus 9 digits, 233 plus 9 digits and the 9 digits alone, as one local number', () => {
    for (const typed of ['0241234567', '233241234567', '241234567', '+233 24 123 4567', '024-123-4567']) {
      expect(parseGhanaMobile(typed), typed).to.deep.equal({ ok: true, local: '0241234567', network: 'MTN' })
    }
  })

  it('refuses short numbers, landlines and unknown prefixes with a clear message', () => {
    for (const typed of ['0241', '024123456', '02412345678', '0302123456', '0111234567', '233302123456', 'abc', '', '2332412345678']) {
      expect(parseGhanaMobile(typed), typed).to.deep.equal({ ok: false, error: INVALID_MOBILE })
    }
  })

  it('knows each network by its prefix', () => {
    expect(networkOfPhone('0551234567')).to.equal('MTN')
    expect(networkOfPhone('0201234567')).to.equal('TELECEL')
    expect(networkOfPhone('0501234567')).to.equal('TELECEL')
    expect(networkOfPhone('0271234567')).to.equal('AIRTELTIGO')
    expect(networkOfPhone('0561234567')).to.equal('AIRTELTIGO')
    expect(networkOfPhone('0301234567')).to.equal(null)
  })

  it('warns, without blocking, when the prefix belongs to another network than the one chosen', () => {
    expect(networkMismatchWarning('0241234567', 'MTN')).to.equal(null)
    expect(networkMismatchWarning('0241234567', 'TELECEL')).to.equal('This looks like an MTN number, not Telecel. Check it, unless it moved networks.')
    expect(networkMismatchWarning('0201234567', 'airteltigo')).to.include('Telecel number, not AirtelTigo')
    expect(networkMismatchWarning('0241', 'TELECEL')).to.equal(null)
  })

  it('lists every spelling a stored number may have', () => {
    expect(phoneVariants('+233 24 123 4567')).to.include.members(['0241234567', '233241234567', '241234567'])
  })
})
