import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// Agents' shops sell result-checker cards at the shop's price; the agent earns the margin on the
// cards allocated, once, in the settlement's transaction (docs/shops.md, ADR 0040 '## In agent shops').
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const count = async (from: string, r: Record<string, unknown> = {}) => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, r))[0]!.n)
const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)
const page = (path: string, client = new Client()) => client.get(path, { Accept: 'text/html', 'User-Agent': 'Mozilla/5.0' })

/** Asks until the page shows `text`, for at most 1 s (another instance hears of a change by NOTIFY; its page lives 5 s). */
async function seenWithin1s(ask: () => Promise<{ text: string }>, text: string) {
  const started = Date.now()
  let r = await ask()
  while (!r.text.includes(text) && Date.now() - started < 1000) {
    await new Promise((done) => setTimeout(done, 20))
    r = await ask()
  }
  expect(r.text, `${text} within 1 s`).to.include(text)
}
const margins = () =>
  sql<{ amount_pesewas: string; payment_transaction_id: string }>(
    `SELECT amount_pesewas, payment_transaction_id FROM earnings_entries WHERE type = 'MARGIN' ORDER BY id`
  )

async function shopAgent(slug = 'ama-checkers') {
  const a = await createAgent({ email: `${slug}@test.local` })
  const c = new Client()
  expect((await c.login(a.user.email, a.password)).status).to.equal(200)
  const made = await c.put('/api/shops/mine', { slug, name: 'Ama Checkers', description: '', whatsapp: '', accent: '#1565c0' })
  expect(made.status, made.text).to.equal(200)
  return { ...a, c, shop: made.body.shop as { id: number; slug: string } }
}

/** A product (user 20, agent 18 GHS, ceiling as given) with stock, sold by a shop at `price`. */
async function sellingShop(stock: number, price = 21, over: Record<string, unknown> = { shopCeiling: 22 }) {
  const admin = await adminClient()
  const productId = await checkerWithStock(admin, stock, over)
  const s = await shopAgent()
  const set = await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price }] })
  expect(set.status, set.text).to.equal(200)
  return { admin, productId, ...s }
}

const buyIn = (buyer: Client, slug: string, body: Record<string, unknown>) =>
  buyer.post(`/api/shops/${slug}/checkers/orders`, { quantity: 1, payerPhone: '0245000001', payerNetwork: 'MTN', ...body })

describe('agent shops sell result checkers', function () {
  this.timeout(60_000)
  beforeEach(resetDb)

  it('a shop price below the agent price or above the shop ceiling is refused with a clear message; only an agent with an open shop sets one', async () => {
    const admin = await adminClient()
    const productId = await checkerWithStock(admin, 1, { shopCeiling: 22 })
    const s = await shopAgent()
    const below = await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price: 17.99 }] })
    expect(below.status).to.equal(400)
    expect(below.body.error).to.equal('BECE checker: your price GH₵17.99 is below your agent price of GH₵18.00')
    const above = await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price: 22.01 }] })
    expect(above.status).to.equal(400)
    expect(above.body.error).to.equal('BECE checker: your price GH₵22.01 is above the shop ceiling of GH₵22.00')
    expect(await count('shop_checker_prices')).to.equal(0)
    expect((await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price: 'a lot' }] })).status).to.equal(400)
    expect((await s.c.put('/api/shops/mine/checkers', { prices: [{ productId: 9999, price: 20 }] })).body.error).to.equal('This checker is not on sale')

    const ok = await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price: 22 }] })
    expect(ok.status, ok.text).to.equal(200)
    expect(ok.body.prices).to.deep.equal([
      { productId, name: 'BECE checker', listed: true, saved: 22, price: 22, floor: 18, ceiling: 22, margin: 4, inStock: true }
    ])
    expect(await count(`audit_logs WHERE action = 'SHOP_CHECKER_PRICES_SET'`)).to.equal(1)

    // Without a shop ceiling the user price is the most a shop may ask.
    await admin.put(`/api/vouchers/admin/products/${productId}`, { name: 'BECE checker', priceUser: 20, priceAgent: 18, shopCeiling: null })
    expect((await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price: 20.5 }] })).body.error).to.equal(
      'BECE checker: your price GH₵20.50 is above the shop ceiling of GH₵20.00'
    )
    // Stopping a product, visitors, agents without a shop and suspended shops.
    expect((await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price: null }] })).body.prices[0].listed).to.equal(false)
    expect((await new Client().put('/api/shops/mine/checkers', { prices: [{ productId, price: 19 }] })).status).to.equal(401)
    const other = await createAgent({ email: 'noshop@test.local' })
    const oc = new Client()
    await oc.login(other.user.email, other.password)
    expect((await oc.put('/api/shops/mine/checkers', { prices: [{ productId, price: 19 }] })).body.error).to.equal('Create your shop first')
    expect((await admin.post(`/api/admin/shops/${s.shop.id}/suspend`, { reason: 'Complaints' })).status).to.equal(200)
    const closed = await s.c.put('/api/shops/mine/checkers', { prices: [{ productId, price: 19 }] })
    expect(closed.status).to.equal(403)
    expect(closed.body.error).to.equal('Your shop is closed at the moment, so it cannot sell checkers')
  })

  it('a visitor buys at the shop price: cards shown to the buyer, the margin credited once with its audit entry, the sale in the shop figures', async () => {
    const { productId, shop, c: agentClient, agent } = await sellingShop(5)
    const buyer = new Client()
    // The price the buyer confirmed decides nothing but whether it is still the price.
    const stale = await buyIn(buyer, shop.slug, { productId, quantity: 2, price: 20 })
    expect(stale.status).to.equal(409)
    expect(stale.body.price).to.equal(21)
    expect((await buyIn(buyer, shop.slug, { productId, quantity: 2 })).status).to.equal(400)
    expect((await buyIn(buyer, 'no-such-shop', { productId, price: 21 })).status).to.equal(404)

    const started = await buyIn(buyer, shop.slug, { productId, quantity: 2, price: 21, amount: 0.01 })
    expect(started.status, started.text).to.equal(201)
    expect(started.body.amount).to.equal(42)
    const tid = started.body.transactionId as string
    const [p] = await sql(`SELECT purpose, amount_pesewas, agent_id, details FROM payments WHERE transaction_id = :tid`, { tid })
    expect(p).to.deep.include({ purpose: 'voucher', amount_pesewas: 4200, agent_id: null })
    expect(p.details.vouchers).to.deep.equal({
      productId,
      quantity: 2,
      unitPesewas: 2100,
      shop: { shopId: shop.id, agentId: agent.id, agentUnitPesewas: 1800 }
    })
    expect(await margins()).to.deep.equal([])

    expect((await approve(tid)).status).to.equal(200)
    const seen = await buyer.get(`/api/vouchers/orders/${tid}`)
    expect(seen.body.purchase.cards.map((c: any) => c.serial)).to.deep.equal(['S0001', 'S0002'])
    expect((await buyer.get('/api/vouchers/mine')).body.purchases.map((x: any) => x.transactionId)).to.deep.equal([tid])
    expect(await count(`sms_outbox WHERE to_phone = '0245000001'`)).to.equal(1)
    // (21 - 18) x 2 cards, once, whatever asks again afterwards.
    await approve(tid)
    await app().services.payments.settle(tid, { status: 'SUCCESS', message: 'again', amountPesewas: 4200, currency: 'GHS' })
    expect(await margins()).to.deep.equal([{ amount_pesewas: '600', payment_transaction_id: tid }])
    expect(await count(`audit_logs WHERE action = 'SHOP_MARGIN_CREDITED' AND resource_id = :tid`, { tid })).to.equal(1)
    const mine = (await agentClient.get('/api/shops/mine')).body
    expect(mine.figures).to.deep.equal({ salesCount: 1, salesAmount: 42, marginEarned: 6 })
    const today = (await agentClient.get('/api/shops/mine/series?days=1')).body.days[0]
    expect(today).to.deep.include({ sales: 1, amount: 42, margin: 6 })
    const earnings = (await agentClient.get('/api/wallet/earnings')).body
    expect(earnings.available).to.equal(6)
    expect(earnings.entries[0]).to.include({ type: 'MARGIN', amount: 6, paymentTransactionId: tid })
  })

  it('two settlements of one payment at once (webhook and verify) credit one margin', async () => {
    const { productId, shop } = await sellingShop(3)
    const started = await buyIn(new Client(), shop.slug, { productId, quantity: 3, price: 21 })
    const tid = started.body.transactionId as string
    const success = { status: 'SUCCESS' as const, message: 'Approved', amountPesewas: 6300, currency: 'GHS' }
    // A webhook, the buyer's status check and the simulator's approval race: each settles in its own transaction.
    const [a, b] = await Promise.all([app().services.payments.settle(tid, success), app().services.payments.settle(tid, success), approve(tid)])
    expect([a.settled, b.settled].filter(Boolean).length).to.be.at.most(1)
    expect(await count(`voucher_cards WHERE payment_transaction_id = :tid`, { tid })).to.equal(3)
    expect(await margins()).to.deep.equal([{ amount_pesewas: '900', payment_transaction_id: tid }])
    expect(await count('shop_checker_sales')).to.equal(1)
  })

  it('a dispute (however often it arrives) or a full refund of a paid shop purchase takes its margin back once', async () => {
    const { productId, shop, c } = await sellingShop(4)
    const paid = async (payerPhone: string) => {
      const tid = (await buyIn(new Client(), shop.slug, { productId, quantity: 2, price: 21, payerPhone })).body.transactionId as string
      expect((await approve(tid)).status).to.equal(200)
      return tid
    }
    const disputed = await paid('0245000011')
    const refunded = await paid('0245000012')
    expect((await c.get('/api/wallet/earnings')).body.available).to.equal(12)
    await Promise.all([1, 2, 3].map(() => app().services.payments.events.reverse(disputed, 'dispute', 'The payer disputed it')))
    await app().services.payments.refund(refunded, 'Wrong exam')
    const reversals = await sql<{ amount_pesewas: string; payment_transaction_id: string }>(
      `SELECT amount_pesewas, payment_transaction_id FROM earnings_entries WHERE type = 'MARGIN_REVERSAL' ORDER BY id`
    )
    expect(reversals).to.deep.equal([
      { amount_pesewas: '-600', payment_transaction_id: disputed },
      { amount_pesewas: '-600', payment_transaction_id: refunded }
    ])
    expect(await count(`audit_logs WHERE action = 'SHOP_MARGIN_REVERSED'`)).to.equal(2)
    expect((await c.get('/api/wallet/earnings')).body.available).to.equal(0)
    expect((await c.get('/api/shops/mine')).body.figures).to.deep.equal({ salesCount: 0, salesAmount: 0, marginEarned: 0 })
  })

  it('cards the stock could not supply are refunded and earn no margin', async () => {
    const { productId, shop } = await sellingShop(3)
    // Both pass the stock check before paying (3 left); settlement gives the first 2 and the second 1.
    const first = (await buyIn(new Client(), shop.slug, { productId, quantity: 2, price: 21 })).body.transactionId as string
    const second = (await buyIn(new Client(), shop.slug, { productId, quantity: 2, price: 21, payerPhone: '0245000002' })).body.transactionId as string
    const third = (await buyIn(new Client(), shop.slug, { productId, quantity: 1, price: 21, payerPhone: '0245000003' })).body.transactionId as string
    for (const tid of [first, second, third]) {
      const amount = tid === third ? 2100 : 4200
      await app().services.payments.settle(tid, { status: 'SUCCESS', message: 'Approved', amountPesewas: amount, currency: 'GHS' })
    }
    expect(await sql(`SELECT transaction_id, kind, amount_pesewas FROM refunds ORDER BY id`)).to.deep.equal([
      { transaction_id: second, kind: 'shortfall', amount_pesewas: 2100 },
      { transaction_id: third, kind: 'full', amount_pesewas: 2100 }
    ])
    expect(await margins()).to.deep.equal([
      { amount_pesewas: '600', payment_transaction_id: first },
      { amount_pesewas: '300', payment_transaction_id: second }
    ])
    expect(
      await sql(`SELECT payment_transaction_id, cards, amount_pesewas FROM shop_checker_sales ORDER BY created_at, payment_transaction_id`)
    ).to.have.deep.members([
      { payment_transaction_id: first, cards: 2, amount_pesewas: '4200' },
      { payment_transaction_id: second, cards: 1, amount_pesewas: '2100' }
    ])
  })

  it('the cached shop page shows the checkers section; a new shop price at once here, and a price or product change on another instance within a second', async () => {
    const other = await bootInstance()
    try {
      const { productId, shop, c, admin } = await sellingShop(2)
      const there = (path: string) => page(path, new Client(other.url))
      const first = await page(`/shop/${shop.slug}`)
      expect(first.status).to.equal(200)
      expect(first.text).to.include('Result checkers').and.include('GH₵21.00')
      expect((await page(`/shop/${shop.slug}`)).headers.get('x-page-cache')).to.equal('hit')
      await there(`/shop/${shop.slug}`)
      expect((await there(`/shop/${shop.slug}`)).headers.get('x-page-cache')).to.equal('hit')

      expect((await c.put('/api/shops/mine/checkers', { prices: [{ productId, price: 21.5 }] })).status).to.equal(200)
      const after = await page(`/shop/${shop.slug}`)
      expect(after.headers.get('x-page-cache')).to.equal('miss')
      expect(after.text).to.include('GH₵21.50').and.not.include('GH₵21.00')
      await seenWithin1s(() => there(`/shop/${shop.slug}`), 'GH₵21.50')
      // An admin lowers the product's shop ceiling: the shop sells at it, on every instance once the change is told.
      await admin.put(`/api/vouchers/admin/products/${productId}`, { name: 'BECE checker', priceUser: 20, priceAgent: 18, shopCeiling: 21.2 })
      await seenWithin1s(() => there(`/shop/${shop.slug}`), 'GH₵21.20')
      // Not sold any more: no section.
      await c.put('/api/shops/mine/checkers', { prices: [{ productId, price: null }] })
      expect((await page(`/shop/${shop.slug}`)).text).to.not.include('Result checkers')
    } finally {
      await other.stop()
    }
  })
})
