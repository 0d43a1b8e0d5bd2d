import { expect } from 'chai'
import zlib from 'node:zlib'
import { shopCardPng } from '../../server/services/shops/og-card.ts'
import { qrMatrix, qrSvg } from '../../server/services/shops/qr.ts'
import { ACCENT_PALETTE, ceilingOf, checkAccent, checkSlug, contrastRatio, priceFields, sellingPrice } from '../../server/services/shops/rules.ts'
import { agentPriceOf as floorOf } from '../../server/services/pricing/index.ts'

const refused = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    return err as { status?: number; message: string }
  }
  throw new Error('expected a refusal')
}

describe('shops: rules, link-preview card and QR code', () => {
  it('slugs: 3-30 lowercase letters, digits and hyphens; reserved words refused; typed case ignored', () => {
    expect(checkSlug(' Kofi-Data ')).to.equal('kofi-data')
    expect(checkSlug('abc')).to.equal('abc')
    expect(checkSlug('a'.repeat(30))).to.equal('a'.repeat(30))
    for (const bad of ['ab', 'a'.repeat(31), '-abc', 'abc-', 'a--b', 'a_b', 'ab c', 'abé', '']) expect(refused(() => checkSlug(bad)).status, bad).to.equal(400)
    for (const word of ['admin', 'api', 'shop', 'datahub', 'support', 'mine']) expect(refused(() => checkSlug(word)).message).to.include('reserved')
    expect(refused(() => checkSlug('  ')).message).to.equal('Enter a shop link')
    expect(refused(() => checkSlug(undefined)).message).to.equal('Enter a shop link')
  })

  it('accent colours: hex only, and white text on them must reach 4.5:1', () => {
    for (const c of ACCENT_PALETTE) expect(contrastRatio(c, '#ffffff'), c).to.be.at.least(4.5)
    expect(checkAccent('#1565C0')).to.equal('#1565c0')
    expect(contrastRatio('#000000', '#ffffff')).to.be.closeTo(21, 0.01)
    // The order of the two colours does not matter, and the darkest channels take WCAG's linear segment.
    expect(contrastRatio('#ffffff', '#000000')).to.be.closeTo(21, 0.01)
    expect(contrastRatio('#0a0a0a', '#ffffff')).to.be.closeTo(19.798, 0.001)
    expect(checkAccent(' #767676 ')).to.equal('#767676') // 4.54:1, the lightest grey that passes
    expect(refused(() => checkAccent('#777777')).message).to.match(/^Choose a darker accent colour/)
    for (const bad of ['#ffff00', '#77dd77', 'red', '#123', 'url(x)', '#1565c0;color:red']) expect(refused(() => checkAccent(bad)).status, bad).to.equal(400)
  })

  it('prices: floor is the agent price (else the public one); the ceiling adds the percent (rounded down) or the fixed GHS; saved prices are held inside', () => {
    expect(floorOf({ priceAgentPesewas: 450, priceUserPesewas: 500 })).to.equal(450)
    expect(floorOf({ priceAgentPesewas: null, priceUserPesewas: 500 })).to.equal(500)
    expect(ceilingOf(455, { shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 10 })).to.equal(500) // 45.5 -> 45
    expect(ceilingOf(450, { shopMaxMarkupType: 'FIXED', shopMaxMarkupValue: 0.3 })).to.equal(480)
    expect(ceilingOf(450, { shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 0 })).to.equal(450)
    expect(sellingPrice(540, 450, 480)).to.equal(480)
    expect(sellingPrice(400, 450, 480)).to.equal(450)
    expect(sellingPrice(470, 450, 480)).to.equal(470)
    // The editor's fields, in GHS: not listed, listed above the ceiling, listed below the floor.
    expect(priceFields(undefined, 450, 480)).to.deep.equal({ listed: false, saved: null, price: null, floor: 4.5, ceiling: 4.8, margin: null })
    expect(priceFields(540, 450, 480)).to.deep.equal({ listed: true, saved: 5.4, price: 4.8, floor: 4.5, ceiling: 4.8, margin: 0.3 })
    expect(priceFields(400, 450, 480)).to.deep.equal({ listed: true, saved: 4, price: 4.5, floor: 4.5, ceiling: 4.8, margin: 0 })
  })

  it('the card is a 1200x630 RGB PNG with valid chunks', () => {
    const png = shopCardPng({ name: 'Ama & Sons Data <script>', accent: '#6a1b9a', siteName: 'Data Hub', lines: ['1GB MTN GH₵5.20'] })
    expect(png.subarray(0, 8)).to.deep.equal(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))
    expect([png.readUInt32BE(16), png.readUInt32BE(20), png[24], png[25]]).to.deep.equal([1200, 630, 8, 2])
    // IDAT inflates to one filter byte plus 1200 RGB pixels per row
    const idatLen = png.readUInt32BE(33)
    expect(png.subarray(37, 41).toString('ascii')).to.equal('IDAT')
    expect(zlib.inflateSync(png.subarray(41, 41 + idatLen)).length).to.equal(630 * (1200 * 3 + 1))
  })

  it('QR codes: finder patterns in three corners, the version grows with the text, SVG has a quiet zone', () => {
    const m = qrMatrix('http://127.0.0.1:3000/shop/kofi-data')
    expect(m.length).to.equal(29) // version 3
    const finder = (x: number, y: number) =>
      [0, 1, 2, 3, 4, 5, 6]
        .map((i) => [m[y]![x + i], m[y + 6]![x + i], m[y + i]![x], m[y + i]![x + 6]])
        .flat()
        .every(Boolean)
    expect(finder(0, 0) && finder(22, 0) && finder(0, 22)).to.equal(true)
    expect(qrMatrix('x'.repeat(150)).length).to.equal(49) // version 8
    expect(qrSvg('https://example.com/shop/abc')).to.match(/^<svg [^>]*viewBox="0 0 37 37"/)
  })
})
