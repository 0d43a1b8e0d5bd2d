// `node bench/stylesheet-cost.ts`: what the public shell's stylesheet costs the main thread while a page loads.
// Loads each page in Chromium (/usr/bin/chromium, CHROME_PATH) with the built shell stylesheet answered as is and as
// variants of it, taken in turn run by run, and adds up the CPU time of style recalculation and layout on the thread
// that parsed the page, until the page is hydrated and half a second after, times 4 (Lighthouse's mobile slowdown).
// Variants: `as-built`; `one-light-block`, without the `prefers-color-scheme: light` block and the `[data-theme=light]`
// rules, which repeat the `:root` values (the page then looks the same in the light theme only: an upper bound on what
// repeated theme blocks cost); `unread-vars`, without the theme variables that no rule reads; `empty`, no stylesheet
// at all (what all of it costs: layout does not go away with it).
// MT_URL=http://host:port runs against a server that is up; otherwise one starts on MT_PORT (4484) with its own
// embedded PostgreSQL (MT_PG_PORT, 54484). MT_PAGES (default the buy page and the demo shop's), MT_RUNS (5) per
// variant, MT_VARIANTS picks variants. Prints the median of each and every run.
import fs from 'node:fs'
import path from 'node:path'
import postcss from 'postcss'
import { ensureShop } from './demo-shop.ts'
import { ROOT, stopChild } from './lib.ts'
import { ADMIN, cost, mainThreadServer, SHOP_SLUG, SLOWDOWN, tracePhoneLoad } from './phone-trace.ts'

const PAGES = (process.env.MT_PAGES ?? `/data-services,/shop/${SHOP_SLUG}`).split(',')
const RUNS = Number(process.env.MT_RUNS ?? 5)
const VARIANTS = (process.env.MT_VARIANTS ?? 'as-built,one-light-block,unread-vars,empty').split(',')

const dir = path.join(ROOT, 'dist/client/assets/static')
const shellFile = fs.readdirSync(dir).find((f) => /^shell\.[\w-]+\.css$/.test(f))
if (!shellFile) throw new Error('no built shell stylesheet: run `npm run build` first')
const built = fs.readFileSync(path.join(dir, shellFile), 'utf8')

function variant(name: string): string {
  if (name === 'as-built') return built
  if (name === 'empty') return ''
  const root = postcss.parse(built)
  if (name === 'one-light-block') {
    root.walkAtRules((a) => {
      if (/prefers-color-scheme:\s*light/.test(a.params)) a.remove()
    })
    root.walkRules((r) => {
      if (r.selector.startsWith('[data-theme=light]')) r.remove()
    })
  } else if (name === 'unread-vars') {
    const read = new Set<string>()
    root.walkDecls((d) => {
      for (const m of d.value.matchAll(/var\((--[\w-]+)/g)) read.add(m[1]!)
    })
    root.walkDecls((d) => {
      const rule = d.parent as postcss.Rule
      if (d.prop.startsWith('--') && /^(:root|\[data-theme)/.test(rule.selector ?? '') && !read.has(d.prop)) d.remove()
    })
  } else throw new Error(`unknown variant ${name}`)
  return root.toString()
}

async function styleAndLayout(url: string, css: string) {
  const events = await tracePhoneLoad(url, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel'],
    settleMs: 500,
    prepare: async (page) => {
      await page.setRequestInterception(true)
      page.on('request', (r) => {
        if (r.url().endsWith(`/${shellFile}`)) void r.respond({ status: 200, contentType: 'text/css', body: css })
        else void r.continue()
      })
    }
  })
  // The page's main thread: the one that parsed this page's HTML (another renderer, started for a blank page or a
  // second process, sometimes does style work of its own).
  const parsed = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url)
  if (!parsed) throw new Error(`no trace of ${url} being parsed`)
  const sum = (names: string[]) =>
    events.filter((e) => e.pid === parsed.pid && e.tid === parsed.tid && e.ph === 'X' && names.includes(e.name)).reduce((s, e) => s + cost(e), 0)
  return { style: sum(['UpdateLayoutTree']), layout: sum(['Layout']) }
}

const { base, child } = await mainThreadServer()
try {
  await ensureShop(base, SHOP_SLUG, ADMIN)
  const texts = new Map(VARIANTS.map((v) => [v, variant(v)]))
  for (const [v, text] of texts) console.log(`${v}: ${text.length} bytes, ${(text.match(/--[\w-]+\s*:/g) ?? []).length} custom property declarations`)
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
  for (const p of PAGES) {
    const runs = new Map(VARIANTS.map((v) => [v, [] as { style: number; layout: number }[]]))
    for (let i = 0; i < RUNS; i++) for (const v of VARIANTS) runs.get(v)!.push(await styleAndLayout(base + p, texts.get(v)!))
    console.log(`\n${p} (CPU time x ${SLOWDOWN}, ms)\n| variant | style | layout | style, each run |\n| --- | --: | --: | --- |`)
    for (const [v, rs] of runs) {
      const style = rs.map((r) => r.style)
      console.log(`| ${v} | ${Math.round(median(style))} | ${Math.round(median(rs.map((r) => r.layout)))} | ${style.map(Math.round).join(', ')} |`)
    }
  }
} finally {
  if (child) await stopChild(child)
}
