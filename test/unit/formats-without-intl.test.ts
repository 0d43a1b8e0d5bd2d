import { expect } from 'chai'
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import { formatCedis } from '../../server/lib/money.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

/** The text the en-GH currency formatter prints, as the web showed it before formatCedis was written by hand. */
const intl = new Intl.NumberFormat('en-GH', {
  style: 'currency',
  currency: 'GHS',
  currencyDisplay: 'narrowSymbol',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2
})
function reference(ghs: number): string {
  const text = intl.format(ghs).replace('GH₵', '₵')
  return text.startsWith('-') ? `-GH${text.slice(1)}` : `GH${text}`
}

/** Same numbers every run (a seeded generator), so a difference found once is found again. */
function* numbers(seed: number, count: number) {
  let s = seed
  const next = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31
  for (let i = 0; i < count; i++) {
    yield Math.round(next() * 1e9) / 100
    yield -Math.round(next() * 1e7) / 100
    yield (next() - 0.5) * 10 ** Math.floor(next() * 14)
    yield Math.round(next() * 1e7) / 1000
  }
}

// The shared code every public page evaluates in its first task made three Intl formatters; the en-GH
// currency one alone cost a throttled phone 100 ms and more of blocking time (ADR 0044).
describe('formats the pages print, without Intl on the first load', () => {
  it('prints cedis exactly as the en-GH currency formatter does', () => {
    const edges = [0, -0, 0.001, -0.001, 0.005, -0.005, 0.004999, 1.005, 1.015, 2.675, 999.995, 999999.995, 1234.5, -1234.5, 12.3, 0.1 + 0.2]
    const odd = [1e21, 1e-7, -1e21, Infinity, -Infinity]
    for (const n of [...edges, ...odd, ...numbers(7, 5000)]) expect(formatCedis(n), String(n)).to.equal(reference(n))
    expect(formatCedis(null)).to.equal('-')
    expect(formatCedis(Number.NaN)).to.equal('-')
  })

  it('makes no Intl formatter when the money and vocabulary modules load, and prints prices without one', () => {
    // A fresh Node, its Intl constructors counted, so the modules this test run already loaded do not hide one.
    const script = `
      let made = 0
      for (const name of ['NumberFormat', 'DateTimeFormat']) {
        const Real = Intl[name]
        Intl[name] = new Proxy(Real, { construct: (t, a) => (made++, new t(...a)) })
      }
      await import(${JSON.stringify(path.join(ROOT, 'server/lib/vocabulary.ts'))})
      const money = await import(${JSON.stringify(path.join(ROOT, 'server/lib/money.ts'))})
      const atLoad = made
      const price = money.formatCedis(1234.5)
      console.log(JSON.stringify({ atLoad, price, afterPrice: made }))`
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' }))
    expect(out).to.deep.equal({ atLoad: 0, price: 'GH₵1,234.50', afterPrice: 0 })
  })
})
