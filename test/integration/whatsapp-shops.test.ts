import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { whatsappInstance, words } from '../helpers/whatsapp.ts'

// Agents' shops in the WhatsApp chat and payment links, against the fake Graph API and real PostgreSQL.
describe("WhatsApp: agents' shops in the chat and payment links", function () {
  this.timeout(90_000)
  let chat: Awaited<ReturnType<typeof whatsappInstance>>
  let pkg: Record<string, any>
  const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
  const say: typeof chat.say = (from, message) => chat.say(from, message)
  const tap = (from: string, replyId: string, title = replyId) => say(from, { replyId, title })

  /** An agent with an open shop selling `pkg` at GH₵5.20, logged in on the WhatsApp instance. */
  async function shop(slug = 'kofi-data', whatsappOrders = true) {
    const a = await createAgent()
    const c = new Client(chat.wa.url)
    expect((await c.login(a.user.email, a.password)).status).to.equal(200)
    const made = await c.put('/api/shops/mine', { slug, name: 'Kofi Data Plug', description: '', whatsapp: '', accent: '#1565c0' })
    expect(made.status, made.text).to.equal(200)
    expect((await c.put('/api/shops/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })).status).to.equal(200)
    if (whatsappOrders) {
      const on = await c.put('/api/shops/mine/whatsapp', { on: true })
      expect(on.status, on.text).to.equal(200)
      expect(on.body.shop).to.include({ whatsappOrders: true, slug })
    }
    return { ...a, c, shopId: made.body.shop.id as number }
  }

  /** From a chosen bundle to the payment question, the recipient typed. */
  async function upToPayment(me: string) {
    await tap(me, 'menu:buy')
    await say(me, { replyId: 'net:MTN', title: 'MTN', kind: 'list_reply' })
    await say(me, { replyId: `pkg:${pkg.id}`, title: '2.0GB', kind: 'list_reply' })
    await tap(me, 'to:other')
    return say(me, { text: '0551234567' })
  }

  before(async () => {
    chat = await whatsappInstance()
  })
  after(async () => {
    await chat?.stop()
  })
  beforeEach(async () => {
    await resetDb()
    chat.graph.sent.length = 0
    chat.graph.requests.length = 0
    await app().db.models.Package.destroy({ where: {} })
    await chat.wa.services.settings.update({ shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 20, whatsappNumber: '0200000001' }, {})
    chat.wa.services.delivery.simulatorControl({ mode: 'deliver' })
    pkg = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 500, priceAgentPesewas: 450 })
    // Written through the main test app: this instance would hear of it by NOTIFY a moment later.
    chat.wa.services.packages.invalidate()
  })
  afterEach(() => {
    expect(chat.graph.requests.filter((r) => r.status !== 200)).to.deep.equal([])
  })

  it("the shop's link names it; the chat buys at the shop's prices; the order is the shop's sale and its margin is credited once on delivery", async () => {
    const a = await shop()
    // The shop page and the portal show the link: the bot's number, with the text that names the shop.
    const link = 'https://wa.me/233200000001?text=Hi!%20I%20want%20to%20buy%20data%20from%20shop%20kofi-data'
    const page = await new Client(chat.wa.url).get('/shop/kofi-data')
    expect(page.status).to.equal(200)
    expect(page.text).to.include(link.replace(/&/g, '&amp;'))
    expect((await a.c.get('/agent/shop')).text).to.include(link)

    const me = '233241170101'
    let seen = await say(me, { text: 'Hi! I want to buy data from shop kofi-data' })
    expect(words(seen)).to.deep.equal(['Hello! Welcome to Kofi Data Plug. Buy data bundles right here in the chat.', 'What would you like to do?'])
    await tap(me, 'menu:buy')
    seen = await say(me, { replyId: 'net:MTN', title: 'MTN', kind: 'list_reply' })
    // The shop's price, not the main shop's GH₵5.00.
    expect(seen[0]!.body.interactive.action.sections[0].rows).to.deep.equal([{ id: `pkg:${pkg.id}`, title: '2.0GB', description: 'GHS 5.20' }])
    await say(me, { replyId: `pkg:${pkg.id}`, title: '2.0GB', kind: 'list_reply' })
    await tap(me, 'to:other')
    await say(me, { text: '0551234567' })
    await tap(me, 'pay:momo')
    expect(words(await tap(me, 'pay:me'))).to.deep.equal(['Please confirm: 2.0GB MTN for 0551234567. Price: GHS 5.20. The payment prompt goes to 0241170101.'])
    await tap(me, 'confirm')
    const [order] = await sql<any>(`SELECT * FROM orders`)
    expect(order).to.include({ channel: 'whatsapp', shop_id: a.shopId, amount_pesewas: 520, user_id: null })
    expect(Number(order.shop_margin_pesewas)).to.equal(70)

    await chat.wa.services.simulator.approve(order.payment_transaction_id)
    await chat.wa.services.queue.drain()
    await chat.wa.services.queue.drain()
    const margins = await sql<any>(`SELECT type, amount_pesewas::int AS amount_pesewas FROM earnings_entries WHERE order_id = :id`, { id: order.id })
    expect(margins).to.deep.equal([{ type: 'MARGIN', amount_pesewas: 70 }])
    expect(chat.graph.texts(me).at(-1)).to.match(/^Delivered: 2\.0GB MTN to 0551234567/)

    // The chat stays with the shop: "hi" greets in its name again.
    expect(words(await say(me, { text: 'hi' }))[0]).to.equal('Hello! Welcome to Kofi Data Plug. Buy data bundles right here in the chat.')
  })

  it('a shop that is suspended, switched off, unknown, or whose agent is not active: a clear message, then the main shop at its prices', async () => {
    const a = await shop('ama-bundles')
    await shop('kwame-data', false)
    const admin = await adminClient(chat.wa.url)
    const cases: [string, () => Promise<unknown>][] = [
      ['shop kwame-data', async () => {}],
      ['shop no-such-shop', async () => {}],
      ['shop ama-bundles', () => app().db.models.Agent.update({ approved: false }, { where: { id: a.agent.id } })],
      ['shop ama-bundles', () => admin.post(`/api/admin/shops/${a.shopId}/suspend`, { reason: 'Complaints' })]
    ]
    let i = 0
    for (const [text, setUp] of cases) {
      await setUp()
      const me = `2332411702${String(++i).padStart(2, '0')}`
      expect(words(await say(me, { text })), text).to.deep.equal([
        'That shop is not taking orders on WhatsApp at the moment. You can buy from Data Hub instead.',
        'What would you like to do?'
      ])
      await tap(me, 'menu:buy')
      const seen = await say(me, { replyId: 'net:MTN', title: 'MTN', kind: 'list_reply' })
      expect(seen[0]!.body.interactive.action.sections[0].rows[0].description, text).to.equal('GHS 5.00')
    }
  })

  it('turning WhatsApp orders on: only for the agent of an open shop; the body is checked', async () => {
    const a = await shop('kofi-data', false)
    expect((await a.c.put('/api/shops/mine/whatsapp', { on: 'yes' })).status).to.equal(400)
    expect((await new Client(chat.wa.url).put('/api/shops/mine/whatsapp', { on: true })).status).to.equal(401)
    const admin = await adminClient(chat.wa.url)
    expect((await admin.post(`/api/admin/shops/${a.shopId}/suspend`, { reason: 'Complaints' })).status).to.equal(200)
    const refused = await a.c.put('/api/shops/mine/whatsapp', { on: true })
    expect(refused.status).to.equal(409)
    expect(refused.body.error).to.match(/closed/)
    expect((await sql<any>(`SELECT whatsapp_orders FROM shops WHERE id = :id`, { id: a.shopId }))[0].whatsapp_orders).to.equal(false)
  })

  it('the texts are settings: a shop link text without "shop {slug}" or a payment message without {link} is refused with 400', async () => {
    const admin = await adminClient(chat.wa.url)
    const noSlug = await admin.put('/api/settings', { whatsappShopPrefill: 'Hi! I want data' })
    expect(noSlug.status).to.equal(400)
    expect(noSlug.body.error).to.match(/shop \{slug\}/)
    expect((await admin.put('/api/settings', { whatsappPayLink: 'Pay now please' })).status).to.equal(400)
    const ok = await admin.put('/api/settings', { whatsappShopGreeting: 'Akwaaba to {shopName}!', whatsappShopPrefill: 'Order from shop {slug} please' })
    expect(ok.status, ok.text).to.equal(200)
    chat.wa.services.settings.invalidate()
    await shop()
    expect((await new Client(chat.wa.url).get('/shop/kofi-data')).text).to.include('?text=Order%20from%20shop%20kofi-data%20please')
    expect(words(await say('233241170501', { text: 'Order from shop kofi-data please' }))[0]).to.equal('Akwaaba to Kofi Data Plug!')
  })

  it('"Get a payment link": the order waits unpaid; the link pays only it, by its server amount; expired or paid links refuse; the chat gets the receipt', async () => {
    const me = '233241170301'
    expect(words(await upToPayment(me))).to.deep.equal(['How would you like to pay?'])
    expect(words(await tap(me, 'pay:link'))).to.deep.equal([
      'Please confirm: 2.0GB MTN for 0551234567. Price: GHS 5.00. You will get a link to pay on our site.'
    ])
    const [sent] = words(await tap(me, 'confirm'))
    const [order] = await sql<any>(`SELECT * FROM orders`)
    expect(order).to.include({ channel: 'whatsapp', payment_status: 'PENDING', amount_pesewas: 500 })
    expect(await sql(`SELECT id FROM payments`)).to.deep.equal([])
    const token = /\/pay\/([\w-]+)/.exec(sent!)![1]!
    // Without PUBLIC_URL the link starts with this instance's own address (development).
    expect(sent!.replace(/http:\/\/localhost:\d+\//, 'SITE/')).to.equal(
      `Pay GHS 5.00 for your order (ref ${String(order.payment_transaction_id).slice(-8)}) here: SITE/pay/${token}\nThe link works for 30 minutes. We will message you when the data is delivered.`
    )

    const visitor = new Client(chat.wa.url)
    const page = await visitor.get(`/pay/${token}`)
    expect(page.status).to.equal(200)
    expect(page.text).to.include('GH₵5.00').and.include('0551234567')
    expect((await visitor.get(`/pay/${token.slice(0, -2)}xx`)).status).to.equal(404)
    expect((await visitor.post(`/api/whatsapp/pay/not-a-real-token-at-all-123`, { payerPhone: '0241170301', payerNetwork: 'MTN' })).status).to.equal(404)
    expect((await visitor.post(`/api/whatsapp/pay/${token}`, { payerPhone: '12', payerNetwork: 'MTN' })).status).to.equal(400)

    const paid = await visitor.post(`/api/whatsapp/pay/${token}`, { payerPhone: '0241170301', payerNetwork: 'MTN', amount: 0.01 })
    expect(paid.status, paid.text).to.equal(200)
    const [payment] = await sql<any>(`SELECT amount_pesewas, transaction_id FROM payments`)
    expect(payment).to.deep.equal({ amount_pesewas: 500, transaction_id: order.payment_transaction_id })
    await chat.wa.services.simulator.approve(order.payment_transaction_id)
    await chat.wa.services.queue.drain()
    expect(chat.graph.texts(me).at(-1)).to.match(/^Delivered: 2\.0GB MTN to 0551234567/)
    expect((await visitor.post(`/api/whatsapp/pay/${token}`, { payerPhone: '0241170301', payerNetwork: 'MTN' })).status).to.equal(409)
    expect((await visitor.get(`/pay/${token}`)).text).to.include('This order is paid.')

    // Another order's link, past its 30 minutes, pays nothing.
    await upToPayment(me)
    await tap(me, 'pay:link')
    const [late] = words(await tap(me, 'confirm'))
    const lateToken = /\/pay\/([\w-]+)/.exec(late!)![1]!
    await sql(
      `UPDATE whatsapp_orders SET pay_expires_at = now() - interval '1 minute' WHERE pay_token_hash IS NOT NULL AND pay_expires_at > now() RETURNING order_id`
    )
    expect((await visitor.post(`/api/whatsapp/pay/${lateToken}`, { payerPhone: '0241170301', payerNetwork: 'MTN' })).status).to.equal(410)
    expect((await visitor.get(`/pay/${lateToken}`)).text).to.include('This payment link has expired.')
  })

  it("a payment link in a shop chat: the shop's sale at its price, paid through the link", async () => {
    const a = await shop()
    const me = '233241170401'
    await say(me, { text: 'shop kofi-data' })
    await upToPayment(me)
    await tap(me, 'pay:link')
    const [sent] = words(await tap(me, 'confirm'))
    expect(sent).to.match(/^Pay GHS 5\.20 for your order/)
    const [order] = await sql<any>(`SELECT * FROM orders`)
    expect(order).to.include({ shop_id: a.shopId, amount_pesewas: 520, payment_status: 'PENDING', channel: 'whatsapp' })
    const token = /\/pay\/([\w-]+)/.exec(sent!)![1]!
    expect((await new Client(chat.wa.url).post(`/api/whatsapp/pay/${token}`, { payerPhone: '0241170401', payerNetwork: 'MTN' })).status).to.equal(200)
    expect((await sql<any>(`SELECT amount_pesewas FROM payments`))[0].amount_pesewas).to.equal(520)
  })
})
