import { expect } from 'chai'
import http from 'node:http'
import zlib from 'node:zlib'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// ADR 0019: visitors' public pages come from memory, once per settings/packages version.
const page = (path: string, client = new Client()) => client.get(path, { Accept: 'text/html', 'User-Agent': 'Mozilla/5.0' })
const cacheState = (r: { headers: Headers }) => r.headers.get('x-page-cache')
const cspNonce = (r: { headers: Headers }) => /'nonce-([\w-]+)'/.exec(r.headers.get('content-security-policy') ?? '')?.[1]

describe('anonymous page cache', () => {
  beforeEach(resetDb)

  it('serves a visitor the page rendered for the first visitor', async () => {
    const first = await page('/')
    expect(first.status).to.equal(200)
    expect(cacheState(first)).to.equal('miss')
    const second = await page('/')
    expect(cacheState(second)).to.equal('hit')
    expect(second.text).to.include('</html>')
    // The same page but for its nonce.
    expect(second.text.replaceAll(cspNonce(second)!, 'N')).to.equal(first.text.replaceAll(cspNonce(first)!, 'N'))
    // Another page, another entry; and the query string is part of the key.
    expect(cacheState(await page('/data-services'))).to.equal('miss')
    expect(cacheState(await page('/data-services?tab=orders'))).to.equal('miss')
    expect(cacheState(await page('/data-services'))).to.equal('hit')
  })

  it('gives every response its own nonce, the one its CSP header names, in every script of the page', async () => {
    await page('/')
    const a = await page('/')
    const b = await page('/')
    expect(cacheState(a)).to.equal('hit')
    const na = cspNonce(a)!
    const nb = cspNonce(b)!
    expect(na).to.match(/^[\w-]{20,}$/)
    expect(na).to.not.equal(nb)
    const inPage = [...a.text.matchAll(/nonce="([^"]*)"/g)].map((m) => m[1])
    expect(inPage.length).to.be.greaterThan(0)
    expect(new Set(inPage)).to.deep.equal(new Set([na]))
    expect(b.text).to.include(`nonce="${nb}"`).and.not.include(na)
  })

  it('never serves a signed-in user from the cache, nor their page to a visitor', async () => {
    await page('/data-services')
    const { user, password } = await createAgent({ email: 'cache-agent@test.local' })
    const agent = new Client()
    await agent.login(user.email, password)
    const signedIn = await page('/data-services', agent)
    expect(signedIn.status).to.equal(200)
    expect(cacheState(signedIn)).to.equal(null)
    expect(signedIn.text).to.include('cache-agent@test.local')
    const admin = await adminClient()
    expect(cacheState(await page('/', admin))).to.equal(null)
    const visitor = await page('/data-services')
    expect(cacheState(visitor)).to.equal('hit')
    expect(visitor.text).to.not.include('cache-agent@test.local')
    // A bearer-token client is signed in too.
    const token = (await new Client().post('/api/auth/login', { email: user.email, password })).body.accessToken
    expect(cacheState(await page('/', Object.assign(new Client(), { bearer: token })))).to.equal(null)
  })

  it('renders again after a settings change saved by an admin', async () => {
    await page('/')
    expect(cacheState(await page('/'))).to.equal('hit')
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { welcomeMessage: 'Fresh bundles every morning' })).status).to.equal(200)
    const after = await page('/')
    expect(cacheState(after)).to.equal('miss')
    expect(after.text).to.include('Fresh bundles every morning')
  })

  it('renders again after a package is added or changed, by the admin API or any other write', async () => {
    await page('/data-services')
    expect(cacheState(await page('/data-services'))).to.equal('hit')
    const admin = await adminClient()
    const saved = await admin.post('/api/packages', { network: 'TELECEL', sizeMB: 7 * 1024, priceUser: 33.5, name: 'Weekend Seven' })
    expect(saved.status).to.equal(201)
    const after = await page('/data-services')
    expect(cacheState(after)).to.equal('miss')
    expect(after.text).to.include('Weekend Seven')
    // The storefront API's cached catalogue moves with it.
    expect((await new Client().get('/api/packages')).body.map((p: { name: string }) => p.name)).to.include('Weekend Seven')
    await createPackage({ network: 'MTN', name: 'Factory Forty', sizeMb: 40 * 1024 })
    const again = await page('/data-services')
    expect(cacheState(again)).to.equal('miss')
    expect(again.text).to.include('Factory Forty')
  })

  it('sends gzip, compressed when rendered, to a client that takes it; plain bytes to one that does not; both with their own nonce', async () => {
    // Raw node:http: fetch() would decode the body itself and hide the encoding.
    const raw = (headers: Record<string, string>) =>
      new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        http
          .get(app().url + '/', { headers: { 'user-agent': 'Mozilla/5.0', accept: 'text/html', ...headers } }, (res) => {
            const chunks: Buffer[] = []
            res
              .on('data', (c) => chunks.push(c))
              .on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }))
              .on('error', reject)
          })
          .on('error', reject)
      })
    await page('/')
    const browser = await raw({ 'accept-encoding': 'gzip, deflate, br, zstd' })
    expect(browser.headers['x-page-cache']).to.equal('hit')
    expect(browser.headers['content-encoding']).to.equal('gzip')
    expect(browser.headers.vary).to.match(/accept-encoding/i)
    expect(Number(browser.headers['content-length'])).to.equal(browser.body.length)
    // gunzip checks the CRC-32 and the length in the trailer.
    const html = zlib.gunzipSync(browser.body).toString()
    const nonce = cspNonce({ headers: new Headers({ 'content-security-policy': String(browser.headers['content-security-policy']) }) })!
    expect(html).to.include('</html>').and.include(`nonce="${nonce}"`)
    expect(browser.body.length).to.be.lessThan(html.length / 2)

    const plain = await raw({})
    expect(plain.headers['content-encoding']).to.equal(undefined)
    const plainNonce = /'nonce-([\w-]+)'/.exec(String(plain.headers['content-security-policy']))![1]!
    expect(plainNonce).to.not.equal(nonce)
    expect(plain.body.toString().replaceAll(plainNonce, 'N')).to.equal(html.replaceAll(nonce, 'N'))
    // A client that takes only brotli gets plain bytes from the cache (compressResponses may encode them).
    const brOnly = await raw({ 'accept-encoding': 'br' })
    expect(brOnly.headers['content-encoding']).to.not.equal('gzip')
  })

  it('renders pages that show a state of their own (a payment callback) every time', async () => {
    const r = await page('/payment-callback?reference=abc')
    expect(cacheState(r)).to.equal(null)
  })

  it('keeps the maintenance switch right: a closed shop is cached as closed, and reopening renders again', async () => {
    const admin = await adminClient()
    await page('/')
    await admin.put('/api/settings', { platformOpen: false })
    const closed = await page('/')
    expect(cacheState(closed)).to.equal('miss')
    const closedAgain = await page('/')
    expect(cacheState(closedAgain)).to.equal('hit')
    expect(closedAgain.text.replaceAll(cspNonce(closedAgain)!, 'N')).to.equal(closed.text.replaceAll(cspNonce(closed)!, 'N'))
    // Other public pages redirect home while closed: answered, never kept.
    const redirected = await page('/data-services')
    expect(redirected.status).to.be.oneOf([301, 302, 307])
    expect(cacheState(await page('/data-services'))).to.equal('miss')
    await admin.put('/api/settings', { platformOpen: true })
    expect(cacheState(await page('/'))).to.equal('miss')
    expect((await page('/data-services')).status).to.equal(200)
  })
})

describe('light API requests', () => {
  beforeEach(resetDb)

  it('gives a visitor JSON without a session (no cookie, no session row) and the security headers of an API answer', async () => {
    const r = await new Client().get('/api/settings')
    expect(r.status).to.equal(200)
    expect(r.headers.get('set-cookie')).to.equal(null)
    expect(r.headers.get('x-content-type-options')).to.equal('nosniff')
    // An API answer is never a document: nothing may run in it or frame it, and the document-only headers stay off.
    expect(r.headers.get('content-security-policy')).to.equal("default-src 'none'; frame-ancestors 'none'")
    expect(r.headers.get('x-frame-options')).to.equal('DENY')
    expect(r.headers.get('cross-origin-resource-policy')).to.equal('same-origin')
    for (const documentOnly of ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-xss-protection'])
      expect(r.headers.get(documentOnly)).to.equal(null)
    // A page keeps helmet's full set.
    const html = await page('/')
    expect(html.headers.get('cross-origin-opener-policy')).to.equal('same-origin')
    expect(html.headers.get('referrer-policy')).to.equal('no-referrer')
    const [rows] = await app().db.sequelize.query('SELECT count(*)::int AS n FROM session')
    expect((rows as { n: number }[])[0]!.n).to.equal(0)
  })

  it('answers the cached catalogue with an ETag and a 304 when it has not changed', async () => {
    await createPackage({ name: 'Tagged One' })
    const a = await new Client().get('/api/packages')
    const etag = a.headers.get('etag')!
    expect(etag).to.match(/^W\/"/)
    // fetch() adds Cache-Control: no-cache to a conditional request unless one is given; a browser revalidating sends max-age=0.
    const again = await fetch(app().url + '/api/packages', { headers: { 'If-None-Match': etag, 'Cache-Control': 'max-age=0' } })
    expect(again.status).to.equal(304)
    await createPackage({ name: 'Tagged Two' })
    const b = await new Client().get('/api/packages')
    expect(b.headers.get('etag')).to.not.equal(etag)
    expect(b.body.map((p: { name: string }) => p.name)).to.include.members(['Tagged One', 'Tagged Two'])
  })

  it('answers a visitor, a filtered query and a signed-in admin each their own catalogue', async () => {
    await createPackage({ name: 'On Sale', network: 'MTN' })
    await createPackage({ name: 'Telecel One', network: 'TELECEL' })
    await createPackage({ name: 'Withdrawn', active: false })
    const names = (r: { body: { name: string }[] }) => r.body.map((p) => p.name)
    expect(names(await new Client().get('/api/packages')))
      .to.include.members(['On Sale', 'Telecel One'])
      .and.not.include('Withdrawn')
    const telecel = await new Client().get('/api/packages?network=telecel')
    expect(names(telecel)).to.include('Telecel One').and.not.include('On Sale')
    expect(new Set(telecel.body.map((p: { network: string }) => p.network))).to.deep.equal(new Set(['TELECEL']))
    expect((await new Client().get('/api/packages?network=VODA')).status).to.equal(400)
    const admin = await adminClient()
    expect(names(await admin.get('/api/packages'))).to.include('Withdrawn')
  })

  it('still loads the session of a signed-in browser on a GET', async () => {
    const admin = await adminClient()
    const r = await admin.get('/api/settings')
    // Admins see every field, visitors the public ones.
    expect(r.body).to.have.property('smsOrderCreatedUser')
    expect((await new Client().get('/api/settings')).body).to.not.have.property('smsOrderCreatedUser')
  })
})
