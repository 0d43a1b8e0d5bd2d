import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// ADR 0020 '## Shops'): an agent's shop, its prices inside the admin's limits,
// purchases at the confirmed price, and the margin credited once on delivery and taken back once.
const q = <T extends object = any>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const drain = () => app().services.queue.drain()

async function agentWithShop(slug = 'kofi-data', over: Record<string, unknown> = {}) {
  const a = await createAgent()
  const c = new Client()
  expect((await c.login(a.user.email, a.password)).status).to.equal(200)
  const res = await c.put('/api/shops/mine', {
    slug,
    name: 'Kofi Data Plug',
    description: 'Cheap bundles, fast',
    whatsapp: '0241234567',
    accent: '#1565c0',
    ...over
  })
  expect(res.status, res.text).to.equal(200)
  return { ...a, c, shop: res.body.shop }
}

async function buy(slug: string, packageId: number, price: number, payerPhone = '0241234567') {
  return new Client().post(`/api/shops/${slug}/orders`, { packageId, price, recipientNumber: '0201112222', payerPhone, payerNetwork: 'MTN' })
}

async function earnings(c: Client) {
  const res = await c.get('/api/wallet/earnings')
  expect(res.status, res.text).to.equal(200)
  return res.body as { available: number; entries: { type: string; amount: number; orderId: number }[] }
}

describe('agent shops', () => {
  let pkg: Record<string, any>
  beforeEach(async () => {
    await resetDb()
    app().services.delivery.simulatorControl({ mode: 'deliver' })
    await app().services.settings.update({ shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 20, commissionEnabled: true, commissionPercentage: 10 }, {})
    // agent price GH₵4.50: ceiling at 20 % is GH₵5.40
    pkg = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 500, priceAgentPesewas: 450 })
  })

  it('agent sets a price and shares the link; a visitor buys; delivery credits the margin once, with no commission; a refund takes it back once', async function () {
    this.timeout(30_000)
    const a = await agentWithShop()
    const saved = await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })
    expect(saved.status, saved.text).to.equal(200)
    const line = saved.body.prices.find((p: any) => p.packageId === pkg.id)
    expect(line).to.include({ listed: true, price: 5.2, floor: 4.5, ceiling: 5.4, margin: 0.7 })

    const view = await new Client().get('/api/shops/kofi-data')
    expect(view.status).to.equal(200)
    expect(view.body.shop).to.include({ name: 'Kofi Data Plug', open: true, accent: '#1565c0' })
    expect(view.body.packages).to.deep.equal([{ id: pkg.id, network: 'MTN', name: '2.0GB MTN', sizeMB: 2048, price: 5.2 }])

    const placed = await buy('kofi-data', pkg.id, 5.2)
    expect(placed.status, placed.text).to.equal(201)
    expect(placed.body.order.amount).to.equal(5.2)
    const tid = placed.body.payment.transactionId as string
    const [order] = await q(
      'SELECT id, agent_id, shop_agent_id, amount_pesewas, shop_price_pesewas, shop_agent_price_pesewas, shop_margin_pesewas FROM orders WHERE payment_transaction_id = :tid',
      { tid }
    )
    expect(order).to.deep.include({ agent_id: null, shop_agent_id: a.agent.id, amount_pesewas: 520 })
    expect([order.shop_price_pesewas, order.shop_agent_price_pesewas, order.shop_margin_pesewas].map(Number)).to.deep.equal([520, 450, 70])

    // paid: nothing credited yet (never at payment)
    expect((await new Client().post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
    expect((await earnings(a.c)).available).to.equal(0)
    await drain()
    const [delivered] = await q('SELECT delivery_status FROM orders WHERE id = :id', { id: order.id })
    expect(delivered!.delivery_status).to.equal('DELIVERED')
    let mine = await earnings(a.c)
    expect(mine.available).to.equal(0.7)
    expect(mine.entries.map((e) => [e.type, e.amount, e.orderId])).to.deep.equal([['MARGIN', 0.7, order.id]])
    // margin wins: no commission for a shop order
    expect(await q('SELECT id FROM commissions WHERE order_id = :id', { id: order.id })).to.have.length(0)
    // a repeated status change or job changes nothing
    await app().services.delivery.setDeliveryStatus(order.id, 'DELIVERED', {})
    await app().services.delivery.setDeliveryStatus(order.id, 'MANUAL', {})
    await drain()
    expect((await earnings(a.c)).entries).to.have.length(1)
    expect(await q(`SELECT id FROM audit_logs WHERE action = 'SHOP_MARGIN_CREDITED' AND resource_id = :id`, { id: String(order.id) })).to.have.length(1)

    // a refund of the delivered order takes the margin back, once
    await app().services.payments.refund(tid, 'Customer never got the data')
    let again: unknown = null
    try {
      await app().services.payments.refund(tid, 'Asked twice')
    } catch (err) {
      again = err
    }
    expect(again).to.include({ status: 409 })
    await app().services.payments.events.reverse(tid, 'dispute', 'A late dispute') // no longer SUCCESS: nothing
    await drain()
    mine = await earnings(a.c)
    expect(mine.available).to.equal(0)
    expect(mine.entries.map((e) => [e.type, e.amount])).to.deep.equal([
      ['MARGIN_REVERSAL', -0.7],
      ['MARGIN', 0.7]
    ])
    expect(await q(`SELECT id FROM audit_logs WHERE action = 'SHOP_MARGIN_REVERSED' AND resource_id = :id`, { id: String(order.id) })).to.have.length(1)

    // the agent's chart: today's margin net of the reversal, and the sale no longer counted (refunded)
    const series = await a.c.get('/api/shops/mine/series?days=7')
    expect(series.body.days).to.have.length(7)
    expect(series.body.days.at(-1)).to.include({ sales: 0, margin: 0 })

    // the admin's list shows the shop's figures, and the orders table names the shop
    const admin = await adminClient()
    const orders = await admin.get('/api/orders?limit=10')
    const row = orders.body.orders.find((o: any) => o.id === order.id)
    expect(row.shop).to.include({ slug: 'kofi-data' })
    expect(row.shop.margin).to.be.a('number').above(0)
    expect(row.user?.agent ?? null).to.equal(null)
    const list = await admin.get('/api/admin/shops')
    expect(list.status).to.equal(200)
    expect(list.body.shops[0]).to.include({ slug: 'kofi-data', status: 'ACTIVE', salesCount: 0, marginEarned: 0 })
  })

  it('a dispute (reversal) of a delivered shop order takes the margin back once, however often it arrives', async function () {
    this.timeout(20_000)
    const a = await agentWithShop()
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.4 }] })
    const placed = await buy('kofi-data', pkg.id, 5.4)
    const tid = placed.body.payment.transactionId as string
    await new Client().post(`/api/simulator/payments/${tid}/approve`)
    await drain()
    expect((await earnings(a.c)).available).to.equal(0.9)
    await Promise.all([1, 2, 3].map(() => app().services.payments.events.reverse(tid, 'dispute', 'The payer disputed it')))
    const mine = await earnings(a.c)
    expect(mine.available).to.equal(0)
    expect(mine.entries.filter((e) => e.type === 'MARGIN_REVERSAL')).to.have.length(1)
  })

  it('an order not yet delivered earns nothing, and its refund takes nothing back', async () => {
    const a = await agentWithShop()
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5 }] })
    const placed = await buy('kofi-data', pkg.id, 5)
    const tid = placed.body.payment.transactionId as string
    await new Client().post(`/api/simulator/payments/${tid}/approve`)
    await app().services.payments.refund(tid, 'Changed mind')
    await drain()
    expect((await earnings(a.c)).entries).to.have.length(0)
  })

  it('the CSV export (MANUAL in bulk) credits each exported shop order its margin once', async function () {
    this.timeout(20_000)
    const a = await agentWithShop()
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.1 }] })
    const placed = await buy('kofi-data', pkg.id, 5.1)
    await new Client().post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)
    const admin = await adminClient()
    const csv = await admin.post('/api/orders/export')
    expect(csv.status, csv.text).to.equal(200)
    expect((await admin.post('/api/orders/export')).status).to.equal(404)
    expect((await earnings(a.c)).entries.map((e) => [e.type, e.amount])).to.deep.equal([['MARGIN', 0.6]])
  })

  it('the server refuses a price above the ceiling or below the agent price, whatever the page sends; old prices are held to new limits', async () => {
    const a = await agentWithShop()
    const above = await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.41 }] })
    expect(above.status).to.equal(400)
    expect(above.body.error).to.equal('2.0GB MTN: the price cannot be above the maximum of GH₵5.40')
    const below = await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 4.49 }] })
    expect(below.status).to.equal(400)
    expect(below.body.error).to.equal('2.0GB MTN: the price cannot be below your agent price of GH₵4.50')
    expect((await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 'lots' }] })).status).to.equal(400)
    expect(await q('SELECT * FROM shop_prices')).to.have.length(0)

    // not listed: not sold, whatever price is sent
    expect((await buy('kofi-data', pkg.id, 5)).body.error).to.equal('This bundle is not sold in this shop')
    // a package id beyond the id column's range names no package: 400, never a database error
    const huge = await buy('kofi-data', 9999999999, 5)
    expect([huge.status, huge.body.error]).to.deep.equal([400, 'Please select a package'])
    expect((await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.4 }] })).status).to.equal(200)
    // the buyer's page must send the price it showed; another price is a 409 with the current one
    const noPrice = await new Client().post('/api/shops/kofi-data/orders', {
      packageId: pkg.id,
      recipientNumber: '0201112222',
      payerPhone: '0241234567',
      payerNetwork: 'MTN'
    })
    expect(noPrice.status).to.equal(400)
    const stale = await buy('kofi-data', pkg.id, 4.5)
    expect(stale.status).to.equal(409)
    expect(stale.body).to.include({ price: 5.4 })

    // the admin lowers the ceiling to GH₵0.30 over the agent price (Settings, tab Shops): the saved GH₵5.40 sells at GH₵4.80
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { shopMaxMarkupType: 'HALF' })).status).to.equal(400)
    expect((await admin.put('/api/settings', { shopMaxMarkupValue: -1 })).status).to.equal(400)
    const put = await admin.put('/api/settings', { shopMaxMarkupType: 'FIXED', shopMaxMarkupValue: 0.3 })
    expect(put.status, put.text).to.equal(200)
    app().services.settings.invalidate()
    const view = await new Client().get('/api/shops/kofi-data')
    expect(view.body.packages[0].price).to.equal(4.8)
    const old = await buy('kofi-data', pkg.id, 5.4)
    expect(old.status).to.equal(409)
    expect(old.body.price).to.equal(4.8)
    const ok = await buy('kofi-data', pkg.id, 4.8)
    expect(ok.status, ok.text).to.equal(201)
    expect(ok.body.order.amount).to.equal(4.8)
    expect((await a.c.get('/api/shops/mine')).body.prices.find((p: any) => p.packageId === pkg.id)).to.include({
      saved: 5.4,
      price: 4.8,
      ceiling: 4.8,
      margin: 0.3
    })
  })

  it('10 concurrent purchases during a price change each pay the price they confirmed, or are refused with 409', async function () {
    this.timeout(30_000)
    const a = await agentWithShop()
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })
    const confirmed = [5.2, 5.0, 5.2, 5.0, 5.2, 5.0, 5.2, 5.0, 5.2, 5.2]
    const [results, change] = await Promise.all([
      Promise.all(confirmed.map((p, i) => buy('kofi-data', pkg.id, p, `024${String(5550000 + i)}`))),
      new Promise((r) => setTimeout(r, 15)).then(() => a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.0 }] }))
    ])
    expect(change.status).to.equal(200)
    let placed = 0
    for (const [i, res] of results.entries()) {
      if (res.status === 201) {
        placed++
        expect(res.body.order.amount, `purchase ${i}`).to.equal(confirmed[i])
        expect(res.body.payment.amount, `purchase ${i}`).to.equal(confirmed[i])
      } else {
        expect(res.status, res.text).to.equal(409)
        expect(res.body.price).to.be.oneOf([5.2, 5.0])
        expect(res.body.price).to.not.equal(confirmed[i])
      }
    }
    const rows = await q<{ amount_pesewas: number; shop_price_pesewas: string; p: string }>(
      'SELECT o.amount_pesewas, o.shop_price_pesewas, p.amount_pesewas AS p FROM orders o JOIN payments p ON p.transaction_id = o.payment_transaction_id WHERE o.shop_id IS NOT NULL'
    )
    expect(rows).to.have.length(placed)
    for (const r of rows) expect([Number(r.shop_price_pesewas), Number(r.p)]).to.deep.equal([r.amount_pesewas, r.amount_pesewas])
    // after the change only the new price sells
    expect((await buy('kofi-data', pkg.id, 5.2)).status).to.equal(409)
    expect((await buy('kofi-data', pkg.id, 5.0)).status).to.equal(201)
  })

  it('shop links: validated, reserved words refused, unique, and a changed link redirects from the old one', async () => {
    const a = await agentWithShop('ama-bundles')
    for (const [slug, msg] of [
      ['AB', 'Shop link must be 3 to 30 characters'],
      ['has space', 'Shop link must be 3 to 30 characters'],
      ['-dash-first', 'Shop link must be 3 to 30 characters'],
      ['a'.repeat(31), 'Shop link must be 3 to 30 characters'],
      ['admin', 'reserved']
    ]) {
      const res = await a.c.put('/api/shops/mine', { slug, name: 'Ama' })
      expect(res.status, slug).to.equal(400)
      expect(res.body.error).to.include(msg)
    }
    expect((await a.c.put('/api/shops/mine', { slug: 'ama-bundles', name: 'Ama', accent: '#ffff00' })).body.error).to.include('darker accent colour')
    expect((await a.c.put('/api/shops/mine', { slug: 'ama-bundles', name: 'Ama', accent: 'red;}' })).status).to.equal(400)
    expect((await a.c.put('/api/shops/mine', { slug: 'ama-bundles', name: 'Ama', whatsapp: '12' })).status).to.equal(400)

    // upper case is taken as lower case; renaming keeps the old link as a redirect
    const renamed = await a.c.put('/api/shops/mine', { slug: 'Ama-Data', name: 'Ama Data' })
    expect(renamed.status, renamed.text).to.equal(200)
    expect(renamed.body.shop.slug).to.equal('ama-data')
    expect((await new Client().get('/api/shops/ama-bundles')).body).to.deep.equal({ redirect: 'ama-data' })
    // another agent may take neither the current nor the old link
    const b = await createAgent()
    const bc = new Client()
    await bc.login(b.user.email, b.password)
    expect((await bc.put('/api/shops/mine', { slug: 'ama-data', name: 'Other' })).status).to.equal(409)
    expect((await bc.put('/api/shops/mine', { slug: 'ama-bundles', name: 'Other' })).status).to.equal(409)
    // the owner may go back to its old link
    expect((await a.c.put('/api/shops/mine', { slug: 'ama-bundles', name: 'Ama' })).status).to.equal(200)
    expect((await new Client().get('/api/shops/ama-data')).body).to.deep.equal({ redirect: 'ama-bundles' })
    // an agent not yet approved has no shop
    const u = await createAgent({ approved: false })
    const uc = new Client()
    await uc.login(u.user.email, u.password)
    expect((await uc.put('/api/shops/mine', { slug: 'new-shop', name: 'New' })).status).to.equal(403)
  })

  it('an admin suspends a shop (audited): its page says it is closed and nothing can be bought; reopening restores it', async () => {
    const a = await agentWithShop()
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5 }] })
    const admin = await adminClient()
    const id = a.shop.id
    expect((await admin.post(`/api/admin/shops/${id}/suspend`, {})).status).to.equal(400)
    expect((await a.c.post(`/api/admin/shops/${id}/suspend`, { reason: 'x' })).status).to.equal(403)
    const s = await admin.post(`/api/admin/shops/${id}/suspend`, { reason: 'Complaints from buyers' })
    expect(s.status, s.text).to.equal(200)
    expect((await admin.post(`/api/admin/shops/${id}/suspend`, { reason: 'again' })).status).to.equal(409)
    const view = await new Client().get('/api/shops/kofi-data')
    expect(view.body.shop).to.include({ open: false, status: 'SUSPENDED' })
    expect(view.body.packages).to.deep.equal([])
    const bought = await buy('kofi-data', pkg.id, 5)
    expect(bought.status).to.equal(410)
    expect(bought.body.error).to.equal('This shop is closed at the moment.')
    expect((await admin.post(`/api/admin/shops/${id}/unsuspend`)).status).to.equal(200)
    expect((await buy('kofi-data', pkg.id, 5)).status).to.equal(201)
    const audit = await q(`SELECT action FROM audit_logs WHERE resource = 'SHOP' AND resource_id = :id ORDER BY id`, { id: String(id) })
    expect(audit.map((r) => r.action)).to.include.members(['SHOP_SUSPENDED', 'SHOP_UNSUSPENDED'])
  })

  it('a plain GET of /shop/<slug> (no JavaScript, like WhatsApp) has the Open Graph title, prices and an image URL that answers a PNG', async () => {
    const a = await agentWithShop('esi-data', { name: 'Esi & Sons <Data>' })
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })
    const res = await fetch(`${app().url}/shop/esi-data`, { headers: { 'User-Agent': 'WhatsApp/2.23.20.0' }, redirect: 'manual' })
    expect(res.status).to.equal(200)
    const html = await res.text()
    const prop = (name: string) => html.match(new RegExp(`<meta property="${name}" content="([^"]*)"`))?.[1]
    expect(prop('og:title')).to.equal('Esi &amp; Sons &lt;Data&gt;')
    expect(prop('og:description')).to.include('2.0GB MTN GH₵5.20')
    expect(html).to.include('<meta name="twitter:card" content="summary_large_image"')
    const image = prop('og:image')!
    expect(image).to.match(/^http:\/\/.+\/shop\/esi-data\/og\.png$/)
    const img = await fetch(image)
    expect(img.status).to.equal(200)
    expect(img.headers.get('content-type')).to.match(/^image\/png/)
    const bytes = Buffer.from(await img.arrayBuffer())
    expect(bytes.subarray(1, 4).toString('ascii')).to.equal('PNG')
    expect(bytes.readUInt32BE(16)).to.equal(1200)
    // the page itself renders the shop's bundle at its price, server-side
    expect(html).to.include('GH₵5.20')
    expect((await fetch(`${app().url}/shop/nobody-here/og.png`)).status).to.equal(404)
    expect((await fetch(`${app().url}/shop/nobody-here`, { headers: { 'User-Agent': 'Mozilla/5.0' } })).status).to.equal(404)
  })

  it('an old shop link answers 301 to the new one; a suspended shop page says it is closed, with no buy form', async () => {
    const a = await agentWithShop('yaw-bundles')
    await a.c.put('/api/shops/mine', { slug: 'yaw-data', name: 'Yaw Data' })
    const old = await fetch(`${app().url}/shop/yaw-bundles?tab=orders`, { redirect: 'manual', headers: { 'User-Agent': 'Mozilla/5.0' } })
    expect(old.status).to.equal(301)
    expect(old.headers.get('location')).to.match(/\/shop\/yaw-data\?tab=orders$/)
    const admin = await adminClient()
    await admin.post(`/api/admin/shops/${a.shop.id}/suspend`, { reason: 'Complaints' })
    const res = await fetch(`${app().url}/shop/yaw-data`, { headers: { 'User-Agent': 'Mozilla/5.0' } })
    expect(res.status).to.equal(200)
    const html = await res.text()
    expect(html).to.include('This shop is closed at the moment.')
    expect(html).to.not.include('Proceed to Payment')
  })

  it('the portal pages render: /agent/shop (link, QR, prices, earnings) and /admin/shops (figures), each for its role only', async () => {
    const a = await agentWithShop('abena-data')
    await a.c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })
    const page = await a.c.get('/agent/shop', { Accept: 'text/html', 'User-Agent': 'Mozilla/5.0' })
    expect(page.status).to.equal(200)
    expect(page.text).to.include('/shop/abena-data')
    expect(page.text).to.include('Share on WhatsApp')
    expect(page.text).to.include('aria-label="QR code of ')
    expect(page.text).to.include('href="/agent/payouts"')
    expect(page.text).to.include('GH₵0.70') // the margin of the listed bundle
    const admin = await adminClient()
    const list = await admin.get('/admin/shops', { Accept: 'text/html', 'User-Agent': 'Mozilla/5.0' })
    expect(list.status).to.equal(200)
    expect(list.text).to.include('/shop/abena-data')
    expect((await a.c.get('/admin/shops', { Accept: 'text/html' })).status).to.be.within(300, 399)
    expect((await a.c.get('/api/admin/shops')).status).to.equal(403)
    const settings = await admin.get('/admin/settings', { Accept: 'text/html', 'User-Agent': 'Mozilla/5.0' })
    expect(settings.text).to.include('Maximum shop markup')
  })
})
