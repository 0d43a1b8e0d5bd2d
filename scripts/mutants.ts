// `npm run mutants [service...]`: a StrykerJS mutation run over the money and security services,
// one Stryker run per service (only its files mutated, only the test files that cover it run), then
// the score table in docs/mutation-testing.md. On demand only: never part of `npm test` or CI.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { Stryker } from '@stryker-mutator/core'
import { buildPages } from './build-pages.ts'

const root = path.resolve(import.meta.dirname, '..')
process.chdir(root)
process.env.NODE_ENV = 'test'

interface Target {
  mutate: string[]
  tests: string[]
  /** Mocha's grep over the tests' full titles: only the describe blocks (or tests) that reach the service run. */
  grep?: string
}

/** Each service: the files mutated and the test files that exercise them (nothing else runs). */
const SERVICES: Record<string, Target> = {
  limits: {
    mutate: ['server/services/limits/*.ts'],
    // rate-limit.ts: its window is the reseller API's per-key limit, its purge the housekeeping job's.
    // limits-buckets first: two short tests of `take` (the buckets charged, the wait named).
    tests: [
      'test/integration/limits-buckets.test.ts',
      'test/integration/limits-checkers.test.ts',
      'test/integration/security.test.ts',
      'test/integration/auth.test.ts',
      'test/integration/jobs.test.ts',
      'test/integration/reseller-api.test.ts'
    ]
  },
  'payments-settle': {
    mutate: ['server/services/payments/settle.ts', 'server/services/payments/settle-lines.ts', 'server/services/payments/queries-settle.ts'],
    // Settlement serves every purpose: beside the money tests, the bulk order's lines (bulk-settle) and its one
    // mobile-money payment (bulk-momo), the agent's fee, AFA and the card flow (payments-paystack), a checker paid
    // from the wallet and a wallet top-up. Nearly every test settles a payment, so each surviving mutant reruns all
    // of them: the grep keeps one block per path through settlement and leaves out those that only repeat one
    // (the other unclear charge starts, the refunds, the reconcile job's paging, the daily reconciliation, USSD's
    // waits, Paystack's refusals that settle nothing); docs/mutation-testing.md lists them.
    tests: [
      'test/integration/bulk-settle.test.ts',
      'test/integration/settle-concurrency.test.ts',
      'test/integration/bulk-momo.test.ts',
      'test/integration/payments-paystack.test.ts',
      'test/integration/money-safety-charges.test.ts',
      'test/integration/money-safety-late-events.test.ts',
      'test/integration/money-safety-ussd-vouchers.test.ts',
      'test/integration/agents-fee.test.ts',
      'test/integration/vouchers.test.ts',
      'test/integration/wallet-credit-refund.test.ts',
      'test/integration/settle-effects.test.ts',
      'test/integration/settle-outcomes.test.ts',
      'test/integration/settle-statements.test.ts'
    ],
    grep: [
      '^settlement effects',
      '^bulk orders',
      '^settlements at the same time',
      '^payments with Paystack .*(mobile money:|card:|less than the amount due|20 simultaneous|AFA by card)',
      '^money safety with Paystack .*(verify before value|late money|vouchers Telecel|duplicate reference:|a clear refusal)',
      '^agents API: (registration fee payment|fee races)',
      '^result-checker vouchers an agent pays from the wallet',
      '^refunds of payments that credited a wallet a top-up refunded',
      '^settlement outcomes',
      '^settlement: its statements'
    ].join('|')
  },
  'payments-refund': {
    mutate: ['server/services/payments/refund.ts', 'server/services/payments/queries-refund.ts'],
    // refund-rules, refund-outcomes, refund-followups and refund-records first: their short tests kill most mutants before the slower money
    // tests run (mocha stops at the first failure). The refund by reference of a top-up runs in wallet-credit-refund only,
    // the export's lock against refunds in order-exports only, a checker purchase's full refund in shop-checkers only.
    tests: [
      'test/integration/refund-rules.test.ts',
      'test/integration/refund-outcomes.test.ts',
      'test/integration/refund-followups.test.ts',
      'test/integration/refund-records.test.ts',
      'test/integration/money-safety-charges.test.ts',
      'test/integration/money-safety-refunds.test.ts',
      'test/integration/money-safety-late-events.test.ts',
      'test/integration/money-safety-ussd-vouchers.test.ts',
      'test/integration/money-safety-reconcile.test.ts',
      'test/integration/delivery-money.test.ts',
      'test/integration/wallet-credit-refund.test.ts',
      'test/integration/money-safety-simulator.test.ts',
      'test/integration/order-exports.test.ts',
      'test/integration/shop-checkers.test.ts'
    ]
  },
  'payments-request': {
    mutate: ['server/services/payments/request.ts'],
    tests: [
      'test/integration/money-safety-charges.test.ts',
      'test/integration/money-safety-refunds.test.ts',
      'test/integration/money-safety-late-events.test.ts',
      'test/integration/money-safety-ussd-vouchers.test.ts',
      'test/integration/money-safety-reconcile.test.ts',
      'test/integration/payments-paystack.test.ts'
    ]
  },
  wallet: {
    mutate: ['server/services/wallet/*.ts'],
    // A checker bought from the wallet and refunded (creditPurchase) is reached only by the vouchers tests that pay from it.
    tests: ['test/integration/wallet.test.ts', 'test/integration/vouchers.test.ts'],
    grep: '^(wallet: |result-checker vouchers (an agent pays from the wallet|a card locked by another settlement))'
  },
  // The PIN rules and the one place a PIN is checked (with the per-agent lock).
  'ussd-pin': {
    mutate: ['server/services/agents/pin.ts', 'server/services/ussd/index.ts:114-158'],
    tests: [
      'test/integration/ussd-access.test.ts',
      'test/integration/ussd-menu.test.ts',
      'test/integration/ussd-purchase.test.ts',
      'test/integration/ussd-adapters.test.ts',
      'test/integration/agents-registration.test.ts',
      'test/integration/agents-pin.test.ts',
      'test/integration/agents-orders.test.ts',
      'test/integration/agents-inbox.test.ts',
      'test/integration/agents-fee.test.ts'
    ]
  },
  recovery: {
    mutate: ['server/services/recovery/*.ts'],
    // The mail test and the edges: the only ones with an SMTP server, so the email half of issuing a code runs.
    tests: [
      'test/integration/account-recovery-edges.test.ts',
      'test/integration/account-recovery.test.ts',
      'test/integration/account-recovery-mail-log.test.ts'
    ]
  },
  'reseller-api-keys': {
    mutate: ['server/services/reseller-api/keys.ts'],
    tests: ['test/integration/reseller-api.test.ts', 'test/integration/reseller-api-keys.test.ts']
  },
  'reseller-api-webhooks': {
    mutate: ['server/services/reseller-api/webhooks.ts'],
    tests: [
      'test/unit/webhook-error-code.test.ts',
      'test/integration/reseller-api.test.ts',
      'test/integration/reseller-api-webhooks.test.ts',
      'test/integration/webhook-addresses.test.ts'
    ]
  },
  earnings: {
    mutate: ['server/services/earnings/*.ts'],
    tests: ['test/integration/earnings-ledger.test.ts']
  },
  payouts: {
    mutate: ['server/services/payouts/{index,model,numbers,provider,transfers}.ts'],
    // The unit test: the provider is picked once per app built, so only a direct call tries each branch.
    tests: ['test/unit/payouts-provider.test.ts', 'test/integration/payouts.test.ts', 'test/integration/payouts-paystack.test.ts']
  },
  'shops-pricing': {
    mutate: ['server/services/shops/rules.ts'],
    tests: ['test/unit/shops.test.ts', 'test/integration/shops.test.ts']
  }
}

const REPORT = 'docs/mutation-testing.md'
const START = '<!-- scores:start -->'
const END = '<!-- scores:end -->'

interface Score {
  killed: number
  survived: number
  noCoverage: number
  timeout: number
  ignored: number
  invalid: number
}

function count(results: Array<{ status: string }>): Score {
  const s: Score = { killed: 0, survived: 0, noCoverage: 0, timeout: 0, ignored: 0, invalid: 0 }
  for (const r of results) {
    if (r.status === 'Killed') s.killed++
    else if (r.status === 'Survived') s.survived++
    else if (r.status === 'NoCoverage') s.noCoverage++
    else if (r.status === 'Timeout') s.timeout++
    else if (r.status === 'Ignored') s.ignored++
    else s.invalid++ // CompileError, RuntimeError, Pending: not a test of the tests
  }
  return s
}

/** Stryker's mutation score: detected (killed, timed out) over all valid mutants, in percent with one decimal. */
function mutationScore(s: Score): number | null {
  const detected = s.killed + s.timeout
  const valid = detected + s.survived + s.noCoverage
  return valid ? Math.floor((detected / valid) * 1000) / 10 : null
}

/** The bar each service must reach; what survives above it is explained in the report as equivalent. */
const MIN_SCORE = 90

function row(name: string, s: Score, commit: string): string {
  const day = new Date().toISOString().slice(0, 10)
  const score = mutationScore(s)
  return `| ${name} | ${score === null ? 'n/a' : `${score}%`} | ${s.killed} | ${s.timeout} | ${s.survived} | ${s.noCoverage} | ${s.ignored} | ${s.invalid} | ${day} | ${commit} |`
}

/** Replaces this service's row in the report's table (the other rows stay as their last run left them). */
function writeRow(name: string, line: string): void {
  const doc = fs.readFileSync(REPORT, 'utf8')
  const start = doc.indexOf(START)
  const end = doc.indexOf(END)
  if (start < 0 || end < start) throw new Error(`${REPORT} has lost its ${START} ... ${END} markers`)
  const table = doc
    .slice(start + START.length, end)
    .trim()
    .split('\n')
  const [head, rule, ...rows] = table
  // Matched by the first cell's text: the formatter pads the cells.
  const kept = rows.filter((r) => r.split('|')[1]?.trim() !== name)
  const order = Object.keys(SERVICES)
  const all = [...kept, line].sort((a, b) => order.indexOf(a.split('|')[1]!.trim()) - order.indexOf(b.split('|')[1]!.trim()))
  fs.writeFileSync(REPORT, `${doc.slice(0, start + START.length)}\n${[head, rule, ...all].join('\n')}\n${doc.slice(end)}`)
  // The check (`npm run check`) formats Markdown tables too: the columns are aligned again here.
  execFileSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', REPORT], { stdio: 'ignore' })
}

const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'))
const unknown = asked.filter((a) => !(a in SERVICES))
if (unknown.length) {
  console.error(`Unknown service ${unknown.join(', ')}; known: ${Object.keys(SERVICES).join(', ')}`)
  process.exit(2)
}

// The integration tests boot the app, which serves the built pages.
if (!fs.existsSync('dist/server/entry.mjs')) {
  const built = await buildPages({ logFile: '.data/test-build.log', lockFile: '.data/build.lock', env: { ...process.env, NODE_ENV: 'production' } })
  if (!built) process.exit(1)
}

const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
let failed = false
for (const name of asked.length ? asked : Object.keys(SERVICES)) {
  const { mutate, tests, grep } = SERVICES[name]!
  console.log(`\n== ${name}: mutating ${mutate.join(' ')}; tests ${tests.join(' ')}`)
  const results = await new Stryker({
    mutate,
    mochaOptions: { require: ['test/helpers/mutation-hooks.ts'], spec: tests, ...(grep ? { grep } : {}) },
    // A sandbox folder per service, so two services can run at once without one cleaning up the other's.
    tempDirName: `.stryker-tmp/${name}`,
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/${name}.json` }
  }).runMutationTest()
  const score = count(results)
  const line = row(name, score, commit)
  console.log(line)
  writeRow(name, line)
  if ((mutationScore(score) ?? 100) < MIN_SCORE) failed = true
}
process.exit(failed ? 1 : 0)
