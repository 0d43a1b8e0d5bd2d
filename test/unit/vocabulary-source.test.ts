import { expect } from 'chai'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Keeps the one vocabulary one: money conversions live in server/lib/money.ts and the list of
 * networks in server/lib/vocabulary.ts. A copy elsewhere drifts the day one of them changes.
 */
const ROOT = join(import.meta.dirname, '..', '..')
const DIRS = ['server', 'pages', 'renderer', 'ussd', 'jobs', 'models']

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name)
    if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'dist' ? [] : sources(path)
    return /\.(ts|tsx)$/.test(e.name) ? [path] : []
  })
}
const files = DIRS.flatMap(sources)
const lines = (file: string) =>
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .map((text, i) => ({ file, line: i + 1, text }))

const MONEY = /\/ ?100\b|\* ?100\b|toFixed\(2\)/
/** Hundreds that are not money, each with its reason. Match on file and a piece of the line. */
const NOT_MONEY: { file: string; has: string; why: string }[] = [
  { file: 'server/services/delivery/vendors/skytech.ts', has: '(mb / 1024) * 100) / 100', why: 'a bundle size in GB to 2 decimals, as the vendor takes it' },
  { file: 'server/services/reports/public-stats.ts', has: 'Math.floor(n / 100) * 100', why: 'a public count rounded down to hundreds' },
  { file: 'pages/admin/packages/size.ts', has: '(mb / MB_PER_GB).toFixed(2)', why: 'a size in GB with up to 2 decimals' },
  { file: 'pages/admin/payouts/+Page.tsx', has: 'state.delayMs / 100', why: 'milliseconds shown as seconds with one decimal' }
]

const NETWORK_LIST = /['"]MTN['"]\s*[,|]\s*['"]TELECEL['"]|TELECEL:\s*['"]Telecel/
const NETWORK_HOMES = ['server/lib/vocabulary.ts']
// SQL CHECK constraints freeze the list as it was when each migration ran.
const isMigration = (file: string) => file.startsWith('models/migrations/')

/** The active-agent rule spelled out by hand (approved and fee paid, in TypeScript or SQL, or its negation). */
const ACTIVE_AGENT_BY_HAND = /approved\s*(AND|&&)\s*[\w?.]*payment_?[sS]tatus\s*={1,3}\s*'SUCCESS'|approved\s*\|\|\s*[\w?.]*paymentStatus\s*!==\s*'SUCCESS'/
/** A voucher pattern written out instead of VOUCHER_RE. */
const VOUCHER_BY_HAND = /\/\^\\d\{(6|4,8)\}\$\//
const NOT_VOUCHERS: { file: string; why: string }[] = [
  { file: 'server/http/routes/auth/schema.ts', why: 'a password reset code: six digits, not a voucher' },
  { file: 'pages/reset/+Page.tsx', why: 'the same reset code, checked in the form' }
]
/** The site's address built by hand instead of publicOrigin. */
const ORIGIN_BY_HAND = /PUBLIC_URL\s*(\?\?|\.replace)|\$\{req\.protocol\}:\/\/|http:\/\/\$\{headers\.host/

function handWritten(pattern: RegExp, homes: string[]): string[] {
  return files
    .filter((f) => !homes.includes(f))
    .flatMap(lines)
    .filter((l) => pattern.test(l.text))
    .map((l) => `${l.file}:${l.line}: ${l.text.trim()}`)
}

describe('one vocabulary in the source tree', () => {
  it('states the active-agent rule once: isActiveAgent and ACTIVE_AGENT_SQL in server/lib/vocabulary.ts', () => {
    expect(handWritten(ACTIVE_AGENT_BY_HAND, ['server/lib/vocabulary.ts']), 'use isActiveAgent(agent) or ACTIVE_AGENT_SQL').to.deep.equal([])
  })

  it('checks a voucher with VOUCHER_RE only, and builds the public address with publicOrigin only', () => {
    expect(
      handWritten(VOUCHER_BY_HAND, ['server/lib/vocabulary.ts', ...NOT_VOUCHERS.map((n) => n.file)]),
      'use VOUCHER_RE from server/lib/vocabulary.ts'
    ).to.deep.equal([])
    expect(handWritten(ORIGIN_BY_HAND, ['server/lib/origin.ts']), 'use publicOrigin from server/lib/origin.ts').to.deep.equal([])
  })

  it('converts and prints money only through server/lib/money.ts', () => {
    const found = files
      .filter((f) => f !== 'server/lib/money.ts')
      .flatMap(lines)
      .filter((l) => MONEY.test(l.text) && !NOT_MONEY.some((a) => a.file === l.file && l.text.includes(a.has)))
      .map((l) => `${l.file}:${l.line}: ${l.text.trim()}`)
    expect(
      found,
      'use toGhs/toPesewas/parseGhs/ghsText/roundGhs/ghsFixed/percentOf/percentage from server/lib/money.ts (or allow-list a non-money hundred with its reason)'
    ).to.deep.equal([])
  })

  it('keeps each allow-listed non-money hundred where it is (a stale entry is removed)', () => {
    for (const a of NOT_MONEY) expect(readFileSync(join(ROOT, a.file), 'utf8'), `${a.file}: ${a.why}`).to.include(a.has)
  })

  it('declares the networks and their labels once, in server/lib/vocabulary.ts', () => {
    const found = files
      .filter((f) => !NETWORK_HOMES.includes(f) && !isMigration(f))
      .flatMap(lines)
      .filter((l) => NETWORK_LIST.test(l.text))
      .map((l) => `${l.file}:${l.line}: ${l.text.trim()}`)
    expect(found, 'import NETWORKS / NETWORK_LABEL / MOMO_LABEL / NetworkName from server/lib/vocabulary.ts').to.deep.equal([])
  })
})
