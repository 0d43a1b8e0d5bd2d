import { expect } from 'chai'
import type { Running } from '../../server/index.ts'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client, type Client as ClientType } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { cacheState, cspNonce, page, pageAt, pageNonces, seenWithin1s } from '../helpers/page-cache.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// The visitors' /checkers page comes from the page cache (ADR 0047): one render per version, dropped
// on every instance when a checker product changes or a product runs out or comes back, and never
// carrying a signed-in agent's page to a visitor.
// React puts a comment between adjacent text parts.
const product = (html: string, name: string) => new RegExp(`${name} · GH₵[\\d.]+( · out of stock)?`).exec(html.replaceAll('<!-- -->', ''))?.[0]

/**
 * Asks `base` until its copy is kept (a hit), for at most 1 s: the notices of the test's own setup
 * (resetDb's truncates, the admin's writes) reach the instances a moment later and drop it meanwhile.
 */
async function cachedAt(base: string, path = '/checkers') {
  const started = Date.now()
  let r = await pageAt(base, path)
  while (cacheState(r) !== 'hit' && Date.now() - started < 1000) r = await pageAt(base, path)
  expect(cacheState(r), base).to.equal('hit')
  return r
}

describe('/checkers page cache', function () {
  this.timeout(30_000)
  let second: Running
  let admin: ClientType
  before(async () => {
    second = await bootInstance()
  })
  after(async () => second?.stop())
  beforeEach(async () => {
    await resetDb()
    admin = await adminClient()
  })

  it('serves visitors the kept render, each answer with its own nonce in the header and the page', async () => {
    await checkerWithStock(admin, 2)
    const first = await cachedAt(app().url)
    expect(first.status).to.equal(200)
    const [a, b] = [await page('/checkers'), await page('/checkers')]
    expect([cacheState(a), cacheState(b)]).to.deep.equal(['hit', 'hit'])
    expect(cspNonce(a)).to.not.equal(cspNonce(b))
    expect(pageNonces(a)).to.deep.equal(new Set([cspNonce(a)]))
    expect(pageNonces(b)).to.deep.equal(new Set([cspNonce(b)]))
    expect(product(a.text, 'BECE checker')).to.equal('BECE checker · GH₵20.00')
    expect(a.headers.get('set-cookie')).to.equal(null)
  })

  it('shows a price change at once on the writer instance and on another', async () => {
    const id = await checkerWithStock(admin, 2)
    await cachedAt(app().url)
    await cachedAt(second.url)
    const saved = await admin.put(`/api/vouchers/admin/products/${id}`, {
      name: 'BECE checker',
      priceUser: 22.5,
      priceAgent: 18,
      howToUse: 'Check at',
      checkingUrl: 'https://eresults.waecgh.org'
    })
    expect(saved.status, saved.text).to.equal(200)
    const here = await page('/checkers')
    expect(cacheState(here)).to.equal('miss')
    expect(product(here.text, 'BECE checker')).to.equal('BECE checker · GH₵22.50')
    await seenWithin1s(
      'price on the other instance',
      () => pageAt(second.url, '/checkers'),
      (r) => product(r.text, 'BECE checker') === 'BECE checker · GH₵22.50'
    )
  })

  it('shows a product running out and coming back on another instance, and keeps the page while stock only shrinks', async () => {
    const id = await checkerWithStock(admin, 2)
    await cachedAt(second.url)
    const cards = (await admin.get(`/api/vouchers/admin/products/${id}/cards`)).body.cards as { id: number }[]
    expect(cards).to.have.length(2)
    expect((await admin.post(`/api/vouchers/admin/cards/${cards[0]!.id}/void`, { reason: 'Misprinted' })).status).to.equal(200)
    // One card is still in stock: nothing a visitor sees moved, so the trigger says nothing.
    await new Promise((done) => setTimeout(done, 150))
    const kept = await pageAt(second.url, '/checkers')
    expect(cacheState(kept)).to.equal('hit')
    expect(product(kept.text, 'BECE checker')).to.equal('BECE checker · GH₵20.00')
    expect((await admin.post(`/api/vouchers/admin/cards/${cards[1]!.id}/void`, { reason: 'Used' })).status).to.equal(200)
    await seenWithin1s(
      'out of stock on the other instance',
      () => pageAt(second.url, '/checkers'),
      (r) => product(r.text, 'BECE checker') === 'BECE checker · GH₵20.00 · out of stock'
    )
    // Put back by hand, as an operator might: the trigger tells every instance all the same.
    await app().db.sequelize.query(`UPDATE voucher_cards SET status = 'AVAILABLE', voided_at = NULL, void_reason = NULL WHERE id = :id`, {
      replacements: { id: cards[1]!.id }
    })
    await seenWithin1s(
      'back in stock on the other instance',
      () => pageAt(second.url, '/checkers'),
      (r) => product(r.text, 'BECE checker') === 'BECE checker · GH₵20.00'
    )
  })

  it("renders a signed-in agent its own page every time, and never hands the agent's data to a visitor", async () => {
    await checkerWithStock(admin, 2)
    await cachedAt(app().url)
    const a = await createAgent({ email: 'checker-agent@test.local' })
    const c = new Client()
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    for (let i = 0; i < 2; i++) {
      const mine = await page('/checkers', c)
      expect(mine.status).to.equal(200)
      expect(cacheState(mine)).to.equal(null)
      expect(mine.text).to.include('checker-agent@test.local').and.include('Pay from wallet')
      expect(product(mine.text, 'BECE checker')).to.equal('BECE checker · GH₵18.00')
    }
    const visitor = await page('/checkers')
    expect(cacheState(visitor)).to.equal('hit')
    expect(visitor.text)
      .to.not.include('checker-agent@test.local')
      .and.not.include('Pay from wallet')
      .and.not.match(/csrfToken"?\s*:\s*"[^"]/)
    expect(product(visitor.text, 'BECE checker')).to.equal('BECE checker · GH₵20.00')
  })

  it('keeps the other pages that are the same for every visitor', async () => {
    for (const path of ['/checkers/mine', '/developers']) {
      expect(cacheState(await cachedAt(app().url, path))).to.equal('hit')
    }
  })
})
