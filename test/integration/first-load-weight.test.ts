import { expect } from 'chai'
import { brotliCompressSync } from 'node:zlib'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }
const BUDGET = 100 * 1024

/** The page's HTML, the text of each script and stylesheet it links, and their brotli weight (what a first visit downloads). */
async function firstLoad(path: string) {
  const client = new Client()
  const page = await client.get(path, browser)
  expect(page.status, path).to.equal(200)
  const urls = [...new Set([...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!))]
  const files = await Promise.all(urls.map(async (u) => (await client.get(u, { 'Accept-Encoding': 'identity' })).text))
  const brotli = files.reduce((sum, text) => sum + brotliCompressSync(text).length, 0)
  return { html: page.text, js: files.join('\n'), brotli }
}

/** A shop that sells a checker in stock, so its page shows the checkers' form under the bundles. */
async function shopWithCheckers(slug: string) {
  const productId = await checkerWithStock(await adminClient(), 2, { shopCeiling: 22 })
  const a = await createAgent({ email: `${slug}@test.local` })
  const agent = new Client()
  expect((await agent.login(a.user.email, a.password)).status).to.equal(200)
  expect((await agent.put('/api/shops/mine', { slug, name: 'Weight Shop', description: '', whatsapp: '', accent: '#1565c0' })).status).to.equal(200)
  expect((await agent.put('/api/shops/mine/checkers', { prices: [{ productId, price: 21 }] })).status).to.equal(200)
}

// The tracker's budget: a phone's first visit to a public page downloads under 100 KB brotli of JS + CSS (ADR 0044).
describe('first load: the public pages stay under 100 KB brotli', function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it('weighs each public page and a shop page with checkers under the budget', async () => {
    await shopWithCheckers('weight-shop')
    for (const p of ['/', '/data-services', '/afa', '/agent/register', '/login', '/shop/weight-shop']) {
      const { brotli } = await firstLoad(p)
      expect(brotli, `${p}: ${(brotli / 1024).toFixed(1)} KB`).to.be.below(BUDGET)
    }
  })

  it("renders a shop's checkers in its HTML but leaves their code to load after the page", async () => {
    await shopWithCheckers('weight-shop')
    const { html, js } = await firstLoad('/shop/weight-shop')
    // The server rendered the form in place, inside the page (no part streamed after it).
    expect(html).to.include('data-testid="shop-checkers"')
    expect(html).to.include('data-testid="checker-total"')
    // (The one template is the page's scripts held until the first paint, renderer/client-start.ts.)
    expect(html.replace(/<template id="client-assets">[\s\S]*?<\/template>/, '')).to.not.include('<template')
    // Only the checkers' form says this, so its code is absent from what the page links.
    expect(js).to.not.include('checker-total')
  })

  it("evaluates React without making an Error: Chromium would parse all of react-dom again for the stack's positions", async () => {
    const { js } = await firstLoad('/data-services')
    // react-dom is in what the page links; its errors made at load (codes 460, 461, 474, 519, 542) carry no stack.
    expect(js).to.include('react.dev/errors/')
    expect(js).to.not.match(/\bError\(\w+\((460|461|474|519|542)\)\)/)
  })

  it("has V8 compile Vike's entry and the shell while they stream: each starts with the compile hint, as sent in every encoding", async () => {
    for (const p of ['/data-services', '/shop/weight-shop']) {
      if (p.startsWith('/shop/')) await shopWithCheckers('weight-shop')
      const client = new Client()
      const page = await client.get(p, browser)
      const entry = /<script src="(\/assets\/entries\/entry-[^"]+\.js)"/.exec(page.text)?.[1]
      expect(entry, `${p} loads Vike's entry`).to.be.a('string')
      const linked = [...new Set([...page.text.matchAll(/href="(\/assets\/chunks\/[^"]+\.js)"/g)].map((m) => m[1]!))]
      const texts = await Promise.all(linked.map(async (u) => [u, (await client.get(u, { 'Accept-Encoding': 'identity' })).text] as const))
      const shell = texts.filter(([, js]) => js.includes('react.dev/errors')).map(([u]) => u)
      expect(shell, `${p}: one linked chunk holds react-dom`).to.have.length(1)
      for (const url of [entry!, shell[0]!]) {
        // Chromium reads the hint only on the first line; the server sends the .br/.gz made at build.
        for (const encoding of ['identity', 'gzip', 'br']) {
          const res = await client.get(url, { 'Accept-Encoding': encoding })
          expect(res.headers.get('content-encoding') ?? 'identity', `${url} ${encoding}`).to.equal(encoding)
          expect(res.text.startsWith('//# allFunctionsCalledOnLoad\n'), `${url} sent ${encoding} starts with the hint`).to.equal(true)
        }
      }
      // The rest is compiled on first call as before: a page's own code and the chunks loaded later are not all run at once.
      for (const [u, js] of texts) if (u !== shell[0]) expect(js.startsWith('//# allFunctionsCalledOnLoad'), u).to.equal(false)
    }
  })

  it("evaluates Vike's entry apart from React: the entry's static imports hold no react-dom", async () => {
    const client = new Client()
    const page = await client.get('/data-services', browser)
    const entry = /<script src="(\/assets\/entries\/entry-[^"]+\.js)"/.exec(page.text)?.[1]
    expect(entry, "the page loads Vike's entry").to.be.a('string')
    // The browser evaluates a module with everything it imports statically in one task; a dynamic import is a later one.
    const evaluatedWithEntry: string[] = []
    const seen = new Set<string>()
    for (let todo = [entry!], url = todo.pop(); url !== undefined; url = todo.pop()) {
      if (seen.has(url)) continue
      seen.add(url)
      const js = (await client.get(url, { 'Accept-Encoding': 'identity' })).text
      evaluatedWithEntry.push(js)
      for (const m of js.matchAll(/\bimport\s*(?:[\w${*][^"'`;]*?from\s*)?"([^"]+\.js)"/g)) todo.push(new URL(m[1]!, `http://page${url}`).pathname)
    }
    expect(seen.size, [...seen].join(', ')).to.be.above(1)
    expect(evaluatedWithEntry.join('\n')).to.not.include('react.dev/errors')
  })
})
