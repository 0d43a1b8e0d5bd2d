import { expect } from 'chai'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// The shops' requests are checked once, by their endpoint's schema (server/http/routes/shops/schema.ts):
// these pin the answers word for word, and which of two problems a request hears first.

async function signedIn(over: Record<string, unknown> = {}) {
  const a = await createAgent(over)
  const c = new Client()
  expect((await c.login(a.user.email, a.password)).status).to.equal(200)
  return c
}
const answer = (res: { status: number; body: { error?: string } }) => [res.status, res.body.error]

describe('shops: request checks at the edge', () => {
  beforeEach(() => resetDb())

  it('PUT /api/shops/mine answers each problem in its own words, the slug first and the accent last', async () => {
    const c = await signedIn()
    expect(answer(await c.put('/api/shops/mine', { name: 'x' }))).to.deep.equal([400, 'Enter a shop link'])
    expect(answer(await c.put('/api/shops/mine', { slug: 'admin', name: 'x', accent: 'red' }))).to.deep.equal([
      400,
      '"admin" is reserved. Please choose another shop link'
    ])
    expect(answer(await c.put('/api/shops/mine', { slug: 'ama-data', name: 'x', accent: 'red' }))).to.deep.equal([400, 'Shop name must be 2 to 60 characters'])
    expect(answer(await c.put('/api/shops/mine', { slug: 'ama-data', name: 'Ama', whatsapp: '12', accent: 'red' }))).to.deep.equal([
      400,
      'WhatsApp number must be 0XXXXXXXXX or 233XXXXXXXXX'
    ])
    expect(answer(await c.put('/api/shops/mine', { slug: 'ama-data', name: 'Ama', accent: null }))).to.deep.equal([
      400,
      'Accent colour must be a hex colour like #00796b'
    ])
    expect(answer(await c.put('/api/shops/mine', ['ama-data']))).to.deep.equal([400, 'Enter a shop link'])
    // trimmed, lower-cased, unknown fields dropped; an empty accent is the palette's first
    const saved = await c.put('/api/shops/mine', { slug: ' Ama-Data ', name: '  Ama  ', accent: '', owner: 'someone else' })
    expect(saved.status, saved.text).to.equal(200)
    expect(saved.body.shop).to.include({ slug: 'ama-data', name: 'Ama', description: '', whatsapp: '', accent: '#00796b', open: true })
  })

  it('an agent not yet approved hears that first, whatever it sent', async () => {
    const c = await signedIn({ approved: false })
    const words = 'Shops are available once your registration payment is successful and an admin has approved your account.'
    expect(answer(await c.put('/api/shops/mine', { slug: 'admin' }))).to.deep.equal([403, words])
    expect(answer(await c.put('/api/shops/mine/whatsapp', { on: 'yes' }))).to.deep.equal([403, words])
    expect(answer(await c.get('/api/shops/mine/series?days=x'))).to.deep.equal([403, words])
  })

  it('PUT /api/shops/mine/whatsapp takes true or false only; GET /api/shops/mine/series reads a bad days as 30', async () => {
    const c = await signedIn()
    expect((await c.put('/api/shops/mine', { slug: 'kojo-data', name: 'Kojo' })).status).to.equal(200)
    for (const on of ['true', 1, null, undefined])
      expect(answer(await c.put('/api/shops/mine/whatsapp', { on })), String(on)).to.deep.equal([400, 'Send on: true or false'])
    const turned = await c.put('/api/shops/mine/whatsapp', { on: true })
    expect(turned.status, turned.text).to.equal(200)
    expect(turned.body.shop.whatsappOrders).to.equal(true)
    expect((await c.get('/api/shops/mine/series?days=x')).body.days).to.have.length(30)
    expect((await c.get('/api/shops/mine/series?days=7')).body.days).to.have.length(7)
    expect((await c.get('/api/shops/mine/series?days=9999')).body.days).to.have.length(365)
  })

  it('the admin suspend: a bad id, then a missing reason, each in its words; a long reason keeps its first 300 characters', async () => {
    const c = await signedIn()
    const shop = (await c.put('/api/shops/mine', { slug: 'esi-data', name: 'Esi' })).body.shop
    const admin = await adminClient()
    expect(answer(await admin.post('/api/admin/shops/abc/suspend', {}))).to.deep.equal([400, 'Invalid shop id'])
    expect(answer(await admin.post('/api/admin/shops/0/unsuspend'))).to.deep.equal([400, 'Invalid shop id'])
    expect(answer(await admin.post(`/api/admin/shops/${shop.id}/suspend`, { reason: '   ' }))).to.deep.equal([
      400,
      'Please give a reason for suspending the shop'
    ])
    expect(answer(await admin.post('/api/admin/shops/999999/suspend', { reason: 'Fraud' }))).to.deep.equal([404, 'Shop not found'])
    const s = await admin.post(`/api/admin/shops/${shop.id}/suspend`, { reason: ` ${'r'.repeat(400)} ` })
    expect(s.status, s.text).to.equal(200)
    const { shops } = await app().services.shops.list()
    expect(shops[0]!.suspendedReason).to.equal('r'.repeat(300))
  })
})
