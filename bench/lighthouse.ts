// `npm run lighthouse`: Lighthouse (mobile profile: simulated 4x CPU slowdown, 1.6 Mbps, 150 ms RTT)
// against the production build on the five public pages; prints the scores, FCP/LCP/TBT/CLS and
// the bytes transferred. LH_URL=http://host:port runs against a server that is already up;
// otherwise `npm start` is run here on LH_PORT (3100) with its own embedded PostgreSQL (LH_PG_PORT).
// LH_PAGES=/data-services,/shop scores only the pages whose path starts with one of those (the shop page
// is `/shop/<slug>`). Reports are written to .data/lighthouse/ (LH_TAG=before names a set of them, one
// file a run, so a before and an after can be compared). The figures go in docs/benchmarks-lighthouse.md. Then, for
// each run, the tasks after the paint it observed weighed by wall time and by CPU time (bench/lighthouse-tasks.ts).
// LH_TRACE=1 also keeps each run's trace (`<tag>-<page>-<run>.trace.json`) to read those tasks one by one.
import lighthouse from 'lighthouse'
import fs from 'node:fs'
import path from 'node:path'
import puppeteer from 'puppeteer-core'
import { ensureShop } from './demo-shop.ts'
import { afterPaint, type AfterPaint } from './lighthouse-tasks.ts'
import { pagesServer, ROOT, stopChild } from './lib.ts'

// An agent's shop, scored like the public buy page (the demo shop is made below when missing).
const SHOP_SLUG = process.env.LH_SHOP ?? 'lighthouse-shop'
const ALL_PAGES = ['/', '/data-services', '/afa', '/agent/register', '/login', `/shop/${SHOP_SLUG}`]
const only = process.env.LH_PAGES?.split(',').filter(Boolean)
const PAGES = only ? ALL_PAGES.filter((p) => only.some((o) => (o === '/' ? p === '/' : p.startsWith(o)))) : ALL_PAGES
const TAG = process.env.LH_TAG
const ADMIN = { email: 'lighthouse-admin@datahub.local', password: 'lighthouse-admin-pass-123' }
const RUNS = Number(process.env.LH_RUNS ?? 1)
const { base, child } = await pagesServer({
  url: process.env.LH_URL,
  port: process.env.LH_PORT ?? '3100',
  pgPort: process.env.LH_PG_PORT ?? '54331',
  dataDir: '.data/lighthouse-db',
  admin: ADMIN
})

await ensureShop(base, SHOP_SLUG, ADMIN)

const browser = await puppeteer.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-dev-shm-usage', '--remote-debugging-port=0']
})
const debugPort = Number(new URL(browser.wsEndpoint()).port)
const outDir = path.join(ROOT, '.data/lighthouse')
fs.mkdirSync(outDir, { recursive: true })

/** One Lighthouse run; a busy shared machine sometimes loses the trace (NO_NAVSTART), so retry. */
async function audit(url: string) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port: debugPort,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo']
    })
    if (!result) throw new Error(`no Lighthouse result for ${url}`)
    if (!result.lhr.runtimeError) return result
    if (attempt === 3) throw new Error(`${url}: ${result.lhr.runtimeError.message}`)
    console.error(`  ${url}: ${result.lhr.runtimeError.code}, trying again`)
  }
}

interface Row {
  page: string
  perf: number
  a11y: number
  bp: number
  seo: number
  fcp: number
  lcp: number
  tbt: number
  cls: number
  kb: number
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const rows: Row[] = []
const tasks: { page: string; run: number; tbt: number; after: AfterPaint | null }[] = []
try {
  for (const page of PAGES) {
    const runs: Row[] = []
    for (let i = 0; i < RUNS; i++) {
      const { lhr, artifacts } = await audit(base + page)
      tasks.push({ page, run: i + 1, tbt: lhr.audits['total-blocking-time']?.numericValue ?? NaN, after: afterPaint(artifacts.Trace.traceEvents) })
      const name = page === '/' ? 'home' : page.slice(1).replace(/\//g, '_')
      fs.writeFileSync(path.join(outDir, TAG ? `${TAG}-${name}-${i + 1}.json` : `${name}.json`), JSON.stringify(lhr))
      // LH_TRACE=1 keeps the run's trace beside it (to read which tasks the blocking time is made of).
      if (process.env.LH_TRACE) fs.writeFileSync(path.join(outDir, `${TAG ?? 'run'}-${name}-${i + 1}.trace.json`), JSON.stringify(artifacts.Trace))
      const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100)
      const num = (a: string) => lhr.audits[a]?.numericValue ?? NaN
      runs.push({
        page,
        perf: score('performance'),
        a11y: score('accessibility'),
        bp: score('best-practices'),
        seo: score('seo'),
        fcp: num('first-contentful-paint'),
        lcp: num('largest-contentful-paint'),
        tbt: num('total-blocking-time'),
        cls: num('cumulative-layout-shift'),
        kb: num('total-byte-weight') / 1024
      })
      // What failed, so a score under 100 says why.
      for (const c of ['accessibility', 'best-practices', 'seo']) {
        for (const ref of lhr.categories[c]?.auditRefs ?? []) {
          const a = lhr.audits[ref.id]
          if (ref.weight > 0 && a && a.score !== null && a.score < 1) console.error(`  ${page} ${c}: ${a.id} — ${a.title}`)
        }
      }
    }
    const pick = (k: keyof Row) => median(runs.map((r) => r[k] as number))
    rows.push({
      page,
      perf: pick('perf'),
      a11y: pick('a11y'),
      bp: pick('bp'),
      seo: pick('seo'),
      fcp: pick('fcp'),
      lcp: pick('lcp'),
      tbt: pick('tbt'),
      cls: pick('cls'),
      kb: pick('kb')
    })
  }
} finally {
  await browser.close()
  if (child) await stopChild(child)
}

console.log(`\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ''}mobile, ${base}`)
console.log('| page | perf | a11y | best pr. | SEO | FCP | LCP | TBT | CLS | transferred |')
console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |')
for (const r of rows) {
  console.log(
    `| ${r.page} | ${r.perf} | ${r.a11y} | ${r.bp} | ${r.seo} | ${(r.fcp / 1000).toFixed(1)} s | ${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${Math.round(r.kb)} KB |`
  )
}
// What each run's TBT is made of (bench/lighthouse-tasks.ts): the tasks after the paint Lighthouse observed, by wall time
// and by CPU time, both x 4. Where the two differ, the machine's load made the blocking, not the page.
console.log('\nEach run: the tasks after the observed first contentful paint (x 4)')
console.log(
  '| page | run | TBT | tasks over 50 ms by wall time | their blocking by wall time | by CPU time | longest: wall / CPU | longest by CPU | CPU of all tasks after the paint | tasks of 20 ms or more by CPU |'
)
console.log('| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |')
for (const t of tasks) {
  const a = t.after
  console.log(
    a
      ? `| ${t.page} | ${t.run} | ${Math.round(t.tbt)} ms | ${a.long} | ${Math.round(a.wallBlocking)} ms | ${Math.round(a.cpuBlocking)} ms | ${Math.round(a.longest.wall)} / ${Math.round(a.longest.cpu)} ms | ${Math.round(a.longestCpu)} ms | ${Math.round(a.cpuAfter)} ms | ${a.cpuOver20} |`
      : `| ${t.page} | ${t.run} | ${Math.round(t.tbt)} ms | no paint in the trace | | | | | | |`
  )
}
