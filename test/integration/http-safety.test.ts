import { expect } from 'chai'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

describe('HTTP safety: bad input, CSRF, errors, health', () => {
  beforeEach(resetDb)

  it('answers malformed JSON, wrong types and oversized bodies with 4xx {error}, never 500', async () => {
    const c = new Client()
    const malformed = await c.request('POST', '/api/auth/login', '{"email": "a@b.c", "password": ', { 'Content-Type': 'application/json' })
    expect(malformed.status).to.equal(400)
    expect(malformed.body.error).to.equal('Malformed JSON body')
    const types = await c.post('/api/auth/login', { email: { $gt: '' }, password: ['x'] })
    expect(types.status).to.equal(400)
    expect(types.body.error).to.be.a('string')
    const huge = await c.post('/api/auth/login', { email: 'a@b.c', password: 'x'.repeat(200_000) })
    expect(huge.status).to.equal(413)
    expect(huge.body.error).to.equal('Request body too large')
    const admin = await adminClient()
    const arr = await admin.put('/api/settings', [1, 2, 3])
    expect(arr.status).to.equal(400)
  })

  it('answers unknown /api paths with a JSON 404', async () => {
    const res = await new Client().get('/api/nope')
    expect(res.status).to.equal(404)
    expect(res.body).to.deep.equal({ error: 'Not found' })
  })

  it('refuses cookie-authenticated changes without the CSRF token, and cross-site requests', async () => {
    const admin = await adminClient()
    const token = admin.csrf
    admin.csrf = null
    const noToken = await admin.put('/api/settings', { siteName: 'X' })
    expect(noToken.status).to.equal(403)
    const wrong = await admin.put('/api/settings', { siteName: 'X' }, { 'x-csrf-token': 'forged' })
    expect(wrong.status).to.equal(403)
    admin.csrf = token
    const crossSite = await admin.put('/api/settings', { siteName: 'X' }, { Origin: 'https://evil.example' })
    expect(crossSite.status).to.equal(403)
    const fetchSite = await admin.put('/api/settings', { siteName: 'X' }, { 'Sec-Fetch-Site': 'cross-site' })
    expect(fetchSite.status).to.equal(403)
    app().services.settings.invalidate()
    expect((await new Client().get('/api/settings')).body.siteName).to.equal('Data Hub')
    expect((await admin.put('/api/settings', { siteName: 'Y' })).status).to.equal(200)
  })

  it('reports liveness and readiness', async () => {
    const c = new Client()
    expect((await c.get('/healthz')).body).to.deep.equal({ status: 'ok' })
    const ready = (await c.get('/readyz')).body
    expect(ready.status).to.equal('ready')
    // Each long-lived database connection of the instance, with its state.
    // (Losses are counted since this process started: earlier tests in the same run cut connections on purpose.)
    for (const name of ['app-pool', 'datahub-settings-listener']) {
      expect(ready.connections[name]).to.include({ up: true })
      expect(ready.connections[name].losses).to.be.a('number')
    }
  })

  it('sends security headers with a per-request script nonce', async () => {
    const a = await new Client().get('/')
    const b = await new Client().get('/')
    const csp = a.headers.get('content-security-policy')!
    expect(csp).to.match(/script-src 'self' 'nonce-[\w-]+'/)
    expect(csp).to.not.equal(b.headers.get('content-security-policy'))
    const nonce = /nonce-([\w-]+)/.exec(csp)![1]
    expect(a.text).to.include(`nonce="${nonce}"`)
    expect(a.headers.get('x-content-type-options')).to.equal('nosniff')
    expect(a.headers.get('x-powered-by')).to.equal(null)
  })

  it('caches hashed assets for a year', async () => {
    const html = (await new Client().get('/')).text
    const asset = /(\/assets\/[^"]+\.(?:js|css))"/.exec(html)![1]!
    const res = await fetch(app().url + asset)
    expect(res.status).to.equal(200)
    expect(res.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable')
  })
})
