// `node bench/weight.ts`: what a phone downloads on a first visit, per page, on the production build:
// the render-blocking CSS and the JS each page links, as sent with `Accept-Encoding: br` (and gzip),
// for the public pages, a shop's page and two portal pages (signed in as the bench admin). Prints figures only.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { ensureShop } from './demo-shop.ts'
import { BENCH_ENV, ROOT, startChild, stopChild } from './lib.ts'

const PORT = process.env.BENCH_PORT ?? '3100'
const PG_PORT = process.env.BENCH_PG_PORT ?? BENCH_ENV.EMBEDDED_PG_PORT
if (!fs.existsSync(path.join(ROOT, 'dist/server/entry.mjs')) || process.env.BENCH_BUILD) {
  spawnSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: ROOT, stdio: 'inherit' })
}
const base = `http://127.0.0.1:${PORT}`
const server = await startChild(
  'main.ts',
  { ...BENCH_ENV, EMBEDDED_PG_PORT: PG_PORT, PORT, SESSION_SECRET: 'bench-session-secret-long-enough-00000000' },
  `${base}/readyz`
)

/** Bytes on the wire for one asset (fetch() would decode them, so node:http counts). */
function size(url: string, encoding: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(base + url, { headers: { 'accept-encoding': encoding } }, (res) => {
        let n = 0
        res.on('data', (c: Buffer) => (n += c.length))
        res.on('end', () => resolve(n))
      })
      .on('error', reject)
  })
}

const SHOP_SLUG = 'weight-shop'
await ensureShop(base, SHOP_SLUG, { email: BENCH_ENV.ADMIN_EMAIL, password: BENCH_ENV.ADMIN_PASSWORD })

let cookie = ''
const login = await fetch(`${base}/api/auth/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ email: BENCH_ENV.ADMIN_EMAIL, password: BENCH_ENV.ADMIN_PASSWORD })
})
if (login.ok)
  cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ')

const pages: [string, boolean][] = [
  ['/', false],
  ['/data-services', false],
  ['/afa', false],
  ['/agent/register', false],
  ['/login', false],
  [`/shop/${SHOP_SLUG}`, false],
  ['/admin/orders', true],
  ['/admin/overview', true]
]
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
console.log(`First-load weight, production build, ${new Date().toISOString()}`)
// The last column is what first-load-weight.test.ts holds under 102,400 bytes: the brotli JS + CSS, in bytes (the
// rounded KB columns hide a few hundred bytes either way).
console.log('| page | CSS br | CSS gzip | CSS raw | JS br | JS gzip | JS raw | JS + CSS br, bytes |')
console.log('| --- | --: | --: | --: | --: | --: | --: | --: |')
try {
  for (const [page, signedIn] of pages) {
    const html = await (await fetch(base + page, { headers: { 'user-agent': 'Mozilla/5.0', cookie: signedIn ? cookie : '' } })).text()
    const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1])
    const js = [...new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]))]
    const sum = async (urls: string[], enc: string) => (await Promise.all(urls.map((u) => size(u, enc)))).reduce((a, b) => a + b, 0)
    const [cssBr, jsBr] = [await sum(css, 'br'), await sum(js, 'br')]
    console.log(
      `| ${page} | ${kb(cssBr)} | ${kb(await sum(css, 'gzip'))} | ${kb(await sum(css, 'identity'))} | ${kb(jsBr)} | ${kb(await sum(js, 'gzip'))} | ${kb(await sum(js, 'identity'))} | ${(cssBr + jsBr).toLocaleString('en')} |`
    )
  }
  // WEIGHT_FILES=1: each file the shop page links with its brotli weight (where the bytes are, to find some to cut).
  if (process.env.WEIGHT_FILES) {
    const html = await (await fetch(`${base}/shop/${SHOP_SLUG}`, { headers: { 'user-agent': 'Mozilla/5.0' } })).text()
    for (const u of new Set([...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1])))
      console.log(`${u}: ${kb(await size(u, 'br'))} br, ${kb(await size(u, 'identity'))} raw`)
  }
  // The icon every page names is asked for again on each visit unless it may be kept.
  const icon = await fetch(`${base}/icons/icon-48.png`)
  console.log(`/icons/icon-48.png: ${icon.status}, Cache-Control: ${icon.headers.get('cache-control')}`)
} finally {
  await stopChild(server)
}
