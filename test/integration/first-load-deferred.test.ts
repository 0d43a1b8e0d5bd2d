import { expect } from 'chai'
import { createAgent } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

/** The page's HTML and the text of every script it links (what a first visit downloads before it can run). */
async function firstLoad(client: Client, path: string): Promise<{ html: string; js: string; urls: string[] }> {
  const page = await client.get(path, browser)
  expect(page.status, path).to.equal(200)
  const urls = [...new Set([...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!))]
  expect(urls, path).to.not.be.empty
  const scripts = await Promise.all(urls.map(async (u) => (await client.get(u, { 'Accept-Encoding': 'identity' })).text))
  return { html: page.text, js: scripts.join('\n'), urls }
}

async function openShop(slug: string) {
  const a = await createAgent({ email: `${slug}@test.local` })
  const agent = new Client()
  expect((await agent.login(a.user.email, a.password)).status).to.equal(200)
  expect((await agent.put('/api/shops/mine', { slug, name: 'Deferred Shop', description: '', whatsapp: '', accent: '#1565c0' })).status).to.equal(200)
}

// Texts only these parts say: when a page's scripts hold none of them, their code is not in its first load.
const MY_ORDERS = 'No orders were found for this phone number.'
const SAVED_ORDERS = 'As this device last saw them'
const DELIVERY_BADGE = 'Delivered (manual)'
// The payment dialog's calls: placing the order, asking its status, finishing it.
const PAYMENT_CALLS = ['Payment must be successful before finalizing order', 'authorization URL not received', 'No transaction ID available']

// What a visitor needs only after a first tap stays off the buy and shop pages' first load (ADR 0044).
describe('first load: the buy and shop pages defer what no first screen needs', function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it("leaves My Orders, the orders saved on the device and the delivery badge out of the buy and shop pages' scripts", async () => {
    await openShop('deferred-shop')
    const visitor = new Client()
    for (const p of ['/data-services', '/shop/deferred-shop']) {
      const { js } = await firstLoad(visitor, p)
      // The buy form is there (its own words), so the scripts read are the page's.
      expect(js, p).to.include('Please select package and enter recipient number')
      for (const text of [MY_ORDERS, SAVED_ORDERS, DELIVERY_BADGE, ...PAYMENT_CALLS]) expect(js, `${p}: ${text}`).to.not.include(text)
    }
  })

  it("keeps the home page's sections and the simulated handset out of the buy and shop pages' CSS", async () => {
    await openShop('deferred-shop')
    const visitor = new Client()
    for (const p of ['/data-services', '/shop/deferred-shop']) {
      const page = await visitor.get(p, browser)
      const urls = [...page.text.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((m) => m[1]!)
      const css = (await Promise.all(urls.map(async (u) => (await visitor.get(u, { 'Accept-Encoding': 'identity' })).text))).join('\n')
      expect(css, p).to.include('.sf-package')
      for (const rule of ['.sf-features', '.sf-step-number', '.sf-trust', '.sf-phone', '.sf-prompt']) expect(css, `${p}: ${rule}`).to.not.include(rule)
    }
    // Where they are used, they still come: the home page with its page, the simulator with its own.
    const home = await visitor.get('/', browser)
    const homeCss = await Promise.all(
      [...home.text.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map(
        async (m) => (await visitor.get(m[1]!, { 'Accept-Encoding': 'identity' })).text
      )
    )
    expect(homeCss.join('\n')).to.include('.sf-step-number')
  })

  it('still renders My Orders in the HTML of a page opened on that tab, and its code comes after the page', async () => {
    await openShop('deferred-shop')
    const visitor = new Client()
    for (const p of ['/data-services?tab=orders', '/shop/deferred-shop?tab=orders']) {
      const { html, js } = await firstLoad(visitor, p)
      expect(html, p).to.include('id="lookup-phone"')
      expect(html, p).to.include('aria-label="Look up orders"')
      expect(js, p).to.not.include(MY_ORDERS)
    }
  })

  it("gives Vike's entry no list of files to preload with a page: the page's HTML names them", async () => {
    const visitor = new Client()
    const { html, urls } = await firstLoad(visitor, '/data-services')
    const entry = urls.find((u) => u.startsWith('/assets/entries/entry-'))
    expect(entry).to.be.a('string')
    const text = (await visitor.get(entry!, { 'Accept-Encoding': 'identity' })).text
    // Vite writes a preload list beside each dynamic import: Vike's entry keeps none (each page's HTML names its files).
    expect(text).to.not.include('__vite__mapDeps')
    expect(text).to.match(/import\(`\.\/pages_data-services\.[\w-]+\.js`\)/)
    // What the browser then needs, the page names: its entry and every chunk its entry imports.
    const pageEntry = urls.find((u) => u.startsWith('/assets/entries/pages_data-services.'))
    expect(pageEntry, 'the page links its entry').to.be.a('string')
    const imported = [...(await visitor.get(pageEntry!, { 'Accept-Encoding': 'identity' })).text.matchAll(/from"\.\.\/chunks\/([^"]+\.js)"/g)].map((m) => m[1]!)
    for (const chunk of imported) expect(html, chunk).to.include(`/assets/chunks/${chunk}`)
  })
})
