import { expect } from 'chai'
import { pageItems } from '../../renderer/ui/page-items.ts'
import { defaultArchiveNote } from '../../server/services/commissions/report-checks.ts'
import { toRange } from '../../server/services/reports/range.ts'

describe('insight helpers', () => {
  it('pages: all when 7 or fewer, else first, last and neighbours with gaps', () => {
    expect(pageItems(1, 1)).to.deep.equal([1])
    expect(pageItems(4, 7)).to.deep.equal([1, 2, 3, 4, 5, 6, 7])
    expect(pageItems(1, 20)).to.deep.equal([1, 2, 'gap', 20])
    expect(pageItems(10, 20)).to.deep.equal([1, 'gap', 9, 10, 11, 'gap', 20])
    expect(pageItems(20, 20)).to.deep.equal([1, 'gap', 19, 20])
    expect(pageItems(3, 20)).to.deep.equal([1, 2, 3, 4, 'gap', 20])
  })

  it('date ranges: a bare end date covers its whole (Ghana = UTC) day; timestamps are exact; reversed ranges refused', () => {
    expect(toRange('2026-03-01', '2026-03-01')).to.deep.equal({ from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') })
    expect(toRange('', undefined)).to.deep.equal({ from: null, to: null })
    expect(toRange(null, '2026-03-01T12:00:00Z').to).to.deep.equal(new Date('2026-03-01T12:00:00Z'))
    expect(() => toRange('2026-03-02', '2026-03-01')).to.throw('startDate must be before endDate')
    expect(() => toRange('2026-02-30x', null)).to.throw(/Invalid date/)
  })

  it("the default archive note is 'Archived on {date}' in Ghana's format", () => {
    expect(defaultArchiveNote(new Date('2026-03-09T10:00:00Z'))).to.equal('Archived on 09/03/2026')
  })
})
