import { expect } from 'chai'
import type { Running } from '../../server/index.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { Client, adminClient } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { cacheState, cspNonce, page, pageAt as at, pageNonces, seenWithin1s } from '../helpers/page-cache.ts'
import { app, resetDb } from '../helpers/server.ts'

// An agent's shop page comes from the visitors' page cache like the other public pages (ADR 0019,
// 0036): per shop, dropped on every instance when the shop, its prices, the settings or the
// catalogue change, and never carrying one visitor's nonce or a signed-in agent's page to another.
async function shopWithPrice(slug: string, packageId: number, price: number) {
  const a = await createAgent({ email: `${slug}@test.local` })
  const c = new Client()
  expect((await c.login(a.user.email, a.password)).status).to.equal(200)
  const made = await c.put('/api/shops/mine', { slug, name: 'Ama Data Hub', description: 'Fast bundles', whatsapp: '', accent: '#1565c0' })
  expect(made.status, made.text).to.equal(200)
  expect((await c.put('/api/shops/mine/prices', { prices: [{ packageId, price }] })).status).to.equal(200)
  return { ...a, c, shop: made.body.shop as { id: number; slug: string } }
}

/**
 * Waits until this instance has heard every change committed so far (a write's NOTIFY arriving late
 * would drop a page the test has just cached): NOTIFYs arrive in commit order, so once a marker sent
 * now is heard, the writes' own are behind us.
 */
async function changesHeard() {
  const marker = 2_000_000_000
  let heard = false
  const stop = app().services.shops.onChange((id) => void (heard ||= id === marker))
  try {
    await app().db.sequelize.query(`SELECT pg_notify('datahub_changes', 'shop:${marker}')`)
    for (let waited = 0; !heard; waited += 20) {
      if (waited > 5_000) throw new Error('the page cache never heard the change')
      await new Promise((r) => setTimeout(r, 20))
    }
  } finally {
    stop()
  }
}

describe('shop page cache', function () {
  this.timeout(30_000)
  let second: Running
  let pkg: Record<string, any>
  before(async () => {
    second = await bootInstance()
  })
  after(async () => second?.stop())
  beforeEach(async () => {
    await resetDb()
    await app().services.settings.update({ shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 20 }, {})
    pkg = await createPackage({ network: 'MTN', sizeMb: 2048, name: 'Two Gig', priceUserPesewas: 500, priceAgentPesewas: 450 })
  })

  it('serves visitors one render, each with its own nonce in the CSP header and the page', async () => {
    await shopWithPrice('ama-data', pkg.id, 5.2)
    const first = await page('/shop/ama-data')
    expect(first.status).to.equal(200)
    expect(cacheState(first)).to.equal('miss')
    const a = await page('/shop/ama-data')
    const b = await page('/shop/ama-data')
    expect([cacheState(a), cacheState(b)]).to.deep.equal(['hit', 'hit'])
    const [na, nb] = [cspNonce(a)!, cspNonce(b)!]
    expect(na).to.match(/^[\w-]{20,}$/)
    expect(na).to.not.equal(nb)
    expect(pageNonces(a)).to.deep.equal(new Set([na]))
    expect(pageNonces(b)).to.deep.equal(new Set([nb]))
    expect(a.text).to.include('GH₵5.20').and.include('Ama Data Hub')
    expect(a.text.replaceAll(na, 'N')).to.equal(first.text.replaceAll(cspNonce(first)!, 'N'))
    // No session, no CSRF token and no cookie go out with a cached page.
    expect(a.headers.get('set-cookie')).to.equal(null)
    expect(a.text).to.not.match(/csrfToken"?\s*:\s*"[^"]/)
  })

  it('keeps ?network= variants apart, each opening its own tab', async () => {
    const telecel = await createPackage({ network: 'TELECEL', sizeMb: 3072, name: 'Three Gig T', priceUserPesewas: 700, priceAgentPesewas: 600 })
    const a = await shopWithPrice('tab-shop', pkg.id, 5.2)
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: telecel.id, price: 6.5 }] })
    await changesHeard()
    const selected = (html: string) => {
      const tabs = html.slice(html.indexOf('aria-label="Network"'))
      return tabs.match(/<a[^>]*role="tab"[^>]*aria-selected="true"[^>]*>([^<]*)</)?.[1]
    }
    const plain = await page('/shop/tab-shop')
    const picked = await page('/shop/tab-shop?network=TELECEL')
    expect(cacheState(picked)).to.equal('miss')
    expect(selected(plain.text)).to.equal('MTN')
    expect(selected(picked.text)).to.equal('Telecel')
    const again = await page('/shop/tab-shop?network=TELECEL')
    expect(cacheState(again)).to.equal('hit')
    expect(selected(again.text)).to.equal('Telecel')
    expect(selected((await page('/shop/tab-shop')).text)).to.equal('MTN')
  })

  it('renders a signed-in agent its own page every time, and never hands it to a visitor', async () => {
    const a = await shopWithPrice('own-view', pkg.id, 5.2)
    await page('/shop/own-view')
    const mine = await page('/shop/own-view', a.c)
    expect(mine.status).to.equal(200)
    expect(cacheState(mine)).to.equal(null)
    expect(mine.text).to.include('own-view@test.local')
    const visitor = await page('/shop/own-view')
    expect(cacheState(visitor)).to.equal('hit')
    expect(visitor.text).to.not.include('own-view@test.local')
    expect(cspNonce(visitor)).to.not.equal(cspNonce(mine))
  })

  it('answers an unknown shop 404 every time, never from the cache', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await page('/shop/nobody-here')
      expect(r.status).to.equal(404)
      expect(cacheState(r)).to.equal('miss')
    }
  })

  it("shows the agent's price change at once on this instance and on another", async () => {
    const a = await shopWithPrice('price-shop', pkg.id, 5.2)
    for (const base of [app().url, second.url]) {
      await at(base, '/shop/price-shop')
      expect(cacheState(await at(base, '/shop/price-shop')), base).to.equal('hit')
    }
    expect((await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.35 }] })).status).to.equal(200)
    // The writer's own instance drops it before answering.
    const here = await page('/shop/price-shop')
    expect(cacheState(here)).to.equal('miss')
    expect(here.text).to.include('GH₵5.35').and.not.include('GH₵5.20')
    await seenWithin1s(
      'price on the other instance',
      () => at(second.url, '/shop/price-shop'),
      (r) => r.text.includes('GH₵5.35') && !r.text.includes('GH₵5.20')
    )
  })

  it('shows a suspension (the closed page) and the reopening at once on another instance', async () => {
    const a = await shopWithPrice('held-shop', pkg.id, 5.2)
    await at(second.url, '/shop/held-shop')
    expect(cacheState(await at(second.url, '/shop/held-shop'))).to.equal('hit')
    const admin = await adminClient()
    expect((await admin.post(`/api/admin/shops/${a.shop.id}/suspend`, { reason: 'Complaints' })).status).to.equal(200)
    const closed = await seenWithin1s(
      'suspension',
      () => at(second.url, '/shop/held-shop'),
      (r) => r.text.includes('This shop is closed at the moment.')
    )
    expect(closed.status).to.equal(200)
    expect(closed.text).to.not.include('Proceed to Payment')
    expect((await admin.post(`/api/admin/shops/${a.shop.id}/unsuspend`)).status).to.equal(200)
    await seenWithin1s(
      'reopening',
      () => at(second.url, '/shop/held-shop'),
      (r) => !r.text.includes('This shop is closed at the moment.') && r.text.includes('GH₵5.20')
    )
  })

  it('shows an agent losing its standing, and a catalogue change, at once on another instance', async () => {
    const a = await shopWithPrice('cat-shop', pkg.id, 5.2)
    await at(second.url, '/shop/cat-shop')
    expect(cacheState(await at(second.url, '/shop/cat-shop'))).to.equal('hit')
    const admin = await adminClient()
    const renamed = await admin.post('/api/packages', {
      id: pkg.id,
      network: 'MTN',
      sizeMB: 2048,
      priceUser: 5,
      priceAgent: 4.5,
      name: 'Renamed Bundle',
      active: true
    })
    expect(renamed.status, renamed.text).to.equal(200)
    await seenWithin1s(
      'package renamed',
      () => at(second.url, '/shop/cat-shop'),
      (r) => r.text.includes('Renamed Bundle')
    )
    // Written by hand, as an operator might: the trigger tells every instance all the same.
    await app().db.sequelize.query('UPDATE agents SET approved = false WHERE id = :id', { replacements: { id: a.agent.id } })
    await seenWithin1s(
      'agent unapproved',
      () => at(second.url, '/shop/cat-shop'),
      (r) => r.text.includes('This shop is closed at the moment.')
    )
  })

  it('gives a shop renamed to a new link a 301 from the old one, never the cached old page', async () => {
    const a = await shopWithPrice('old-link', pkg.id, 5.2)
    await at(second.url, '/shop/old-link')
    expect(cacheState(await at(second.url, '/shop/old-link'))).to.equal('hit')
    expect((await a.c.put('/api/shops/mine', { slug: 'new-link', name: 'Ama Data Hub' })).status).to.equal(200)
    const r = await seenWithin1s(
      'old link',
      () => new Client(second.url).get('/shop/old-link', { 'User-Agent': 'Mozilla/5.0' }),
      (x) => x.status === 301
    )
    expect(r.headers.get('location')).to.match(/\/shop\/new-link$/)
  })
})

describe('icons', () => {
  it('are cached by browsers for a week, not immutable (their names stay); hashed assets stay immutable', async () => {
    const icon = await fetch(`${app().url}/icons/icon.svg`)
    expect(icon.status).to.equal(200)
    expect(icon.headers.get('cache-control')).to.equal('public, max-age=604800')
    const html = await page('/')
    const asset = /\/assets\/[^"']+\.js/.exec(html.text)?.[0]
    expect(asset, 'a hashed script in the page').to.be.a('string')
    expect((await fetch(`${app().url}${asset}`)).headers.get('cache-control')).to.equal('public, max-age=31536000, immutable')
  })
})
