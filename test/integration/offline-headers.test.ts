import { expect } from 'chai'
import * as factories from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { resetDb } from '../helpers/server.ts'

// What the offline service worker relies on from the server (ADR 0044); the browser side is test/e2e/offline.test.ts.
describe('offline: the server marks what the service worker may keep', () => {
  beforeEach(resetDb)
  const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

  it("marks a visitor's public pages as a copy anyone may keep, and no signed-in page", async () => {
    const visitor = new Client()
    for (const p of ['/', '/data-services', '/afa', '/login', '/agent/register']) {
      const r = await visitor.get(p, browser)
      expect(r.status, p).to.equal(200)
      expect(r.headers.get('x-offline-copy'), p).to.equal('public')
    }
    const { user, password } = await factories.createAgent()
    const agent = new Client()
    expect((await agent.login(user.email, password)).status).to.equal(200)
    for (const p of ['/data-services', '/agent/dashboard']) {
      const r = await agent.get(p, browser)
      expect(r.status, p).to.equal(200)
      expect(r.headers.get('x-offline-copy'), p).to.equal(null)
    }
    // Nor any API answer (a payment's included).
    expect((await visitor.get('/api/orders?phoneNumber=0241234567')).headers.get('x-offline-copy')).to.equal(null)
  })

  it('lets pages run the worker and has browsers fetch it afresh on every visit', async () => {
    const page = await new Client().get('/data-services', browser)
    expect(page.headers.get('content-security-policy')).to.include("worker-src 'self'")
    const sw = await new Client().get('/sw.js', { 'Accept-Encoding': 'br' })
    expect(sw.status).to.equal(200)
    expect(sw.headers.get('content-type')).to.include('javascript')
    expect(sw.headers.get('cache-control')).to.equal('no-cache')
  })
})
