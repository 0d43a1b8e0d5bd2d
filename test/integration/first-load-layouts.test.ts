import { expect } from 'chai'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

/** The page's HTML and the text of every script it links (what a first visit downloads before it can run). */
async function firstLoad(client: Client, path: string): Promise<{ html: string; js: string }> {
  const page = await client.get(path, browser)
  expect(page.status, path).to.equal(200)
  const urls = [...new Set([...page.text.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]!))]
  expect(urls, path).to.not.be.empty
  const scripts = await Promise.all(urls.map(async (u) => (await client.get(u, { 'Accept-Encoding': 'identity' })).text))
  return { html: page.text, js: scripts.join('\n') }
}

// Each folder names its shell (+Layout.ts): a visitor's page never carries the portals' code (ADR 0044).
describe('first load: each page carries only its own layout', () => {
  beforeEach(resetDb)

  it("gives the public pages neither portal's shell, the idle warning nor the admin's refund dialog", async () => {
    const visitor = new Client()
    for (const p of ['/', '/data-services', '/afa', '/agent/register', '/login']) {
      const { html, js } = await firstLoad(visitor, p)
      expect(html, p).to.include('navbar')
      for (const portalOnly of ['Admin Panel', 'Agent Portal', 'sidebar_state', 'Your session is about to expire', 'Please give a reason for the refund'])
        expect(js, `${p}: ${portalOnly}`).to.not.include(portalOnly)
    }
  })

  it("hydrates a public page's content and footer after its header, each as its own part", async () => {
    const visitor = new Client()
    for (const p of ['/', '/data-services', '/afa', '/agent/register', '/login']) {
      const { html } = await firstLoad(visitor, p)
      // React's Suspense markers: what they enclose hydrates in slices after the page's first task.
      expect(html, p).to.include('<main id="main"><!--$-->')
      expect(html, p).to.match(/<!--\$--><footer class="footer">/)
      // The header is outside both, so its menu answers at once.
      expect(html.indexOf('<nav'), p).to.be.below(html.indexOf('<!--$-->'))
    }
  })

  it('still renders and ships the portal shells on signed-in pages', async () => {
    const admin = await adminClient()
    const overview = await firstLoad(admin, '/admin/overview')
    expect(overview.html).to.include('Admin Panel')
    expect(overview.js).to.include('Admin Panel')
    const { user, password } = await factories.createAgent()
    const agent = new Client()
    expect((await agent.login(user.email, password)).status).to.equal(200)
    const dashboard = await firstLoad(agent, '/agent/dashboard')
    expect(dashboard.html).to.include('Agent Portal')
    expect(dashboard.js).to.include('Agent Portal')
    expect(dashboard.js).to.not.include('Admin Panel')
  })
})
