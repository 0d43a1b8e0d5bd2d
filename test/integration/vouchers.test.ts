import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'
import { voucherKeyRefusal } from '../../server/services/vouchers/index.ts'
import { AtPhone, ussdAgent } from '../helpers/ussd.ts'

// Result-checker vouchers (docs/vouchers.md, ADR 0040).
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const count = async (from: string, r: Record<string, unknown> = {}) => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, r))[0]!.n)
const approve = (tid: string) => new Client().post(`/api/simulator/payments/${tid}/approve`)
const phoneOf = (i: number) => `024${String(5000000 + i)}`

async function agentWithBalance(amount: number) {
  const a = await createAgent()
  const c = new Client()
  await c.login(a.user.email, a.password)
  const admin = await adminClient()
  expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount, direction: 'CREDIT', reason: 'float' })).status).to.equal(200)
  return { ...a, c }
}

describe('result-checker vouchers', function () {
  this.timeout(120_000)
  beforeEach(resetDb)

  it('stock uploads refuse bad lines and duplicates (in the file and against stock) with line numbers, count per product, and audit counts only', async () => {
    const admin = await adminClient()
    const productId = await checkerWithStock(admin, 0)
    const dupInFile = await admin.post('/api/vouchers/admin/stock', {
      productId,
      format: 'csv',
      content: 'serial,pin,expiry\nA0001,1111\nA0002,2222\nA0001,3333'
    })
    expect(dupInFile.status).to.equal(400)
    expect(dupInFile.body.error).to.equal('Line 4: serial A0001 is already on line 2')
    const badDate = await admin.post('/api/vouchers/admin/stock', { productId, format: 'csv', content: 'A0001,1111,not-a-date' })
    expect(badDate.body.error).to.equal('Line 1: expiry must be a date (YYYY-MM-DD)')
    const ok = await admin.post('/api/vouchers/admin/stock', {
      productId,
      format: 'paste',
      content: 'A0001\t1111\nA0002\t2222\t2020-01-31\nA0003\t3333\t2099-12-31'
    })
    expect(ok.status).to.equal(201)
    expect(ok.body).to.deep.equal({ added: 3, available: 2 })
    const again = await admin.post('/api/vouchers/admin/stock', { productId, format: 'paste', content: 'B0001,4444\nA0003,5555\nA0001,6666' })
    expect(again.status).to.equal(400)
    expect(again.body.error).to.equal('Already in stock: lines 2, 3')
    expect(await count('voucher_cards')).to.equal(3)
    const [product] = (await admin.get('/api/vouchers/admin/products')).body.products
    expect(product.stock).to.deep.equal({ available: 2, sold: 0, expired: 1, voided: 0 })
    const audit = await sql(`SELECT details::text AS d FROM audit_logs WHERE action = 'VOUCHER_STOCK_UPLOADED'`)
    expect(audit).to.have.length(1)
    expect(audit[0].d).to.include('"added": 3').and.not.include('1111').and.not.include('3333')
    expect(
      (await sql(`SELECT pin_sealed FROM voucher_cards`)).every((r) => r.pin_sealed.startsWith('sealed:v1:') && !/1111|2222|3333/.test(r.pin_sealed))
    ).to.equal(true)
    // Bad input is a clear 4xx, and only admins may upload.
    // Checked at the edge, in the words they always had.
    const refused = await Promise.all([
      admin.post('/api/vouchers/admin/stock', { productId, content: '' }),
      admin.post('/api/vouchers/admin/stock', { content: 'C0001,1234' }),
      admin.post('/api/vouchers/admin/products', { name: 'X', priceUser: -1 }),
      admin.post('/api/vouchers/admin/products', { name: 'WAEC', priceUser: 5, priceAgent: 6 }),
      admin.get('/api/vouchers/admin/sold?limit=500')
    ])
    expect(refused.map((r) => [r.status, r.body.error])).to.deep.equal([
      [400, 'Paste the cards or choose a file'],
      [400, 'Choose a product'],
      [400, 'Name must be 2 to 80 characters'],
      [400, 'Agent price cannot be above the user price'],
      [400, 'limit must be less than or equal to 100']
    ])
    expect((await new Client().post('/api/vouchers/admin/stock', { productId, content: 'C0001,1234' })).status).to.be.oneOf([401, 403])
  })

  it('production refuses to start without VOUCHER_ENCRYPTION_KEY once any card exists', async () => {
    const prod = { NODE_ENV: 'production' as const }
    expect(await voucherKeyRefusal(app().db.sequelize, prod)).to.equal(null)
    await checkerWithStock(await adminClient(), 1)
    expect(await voucherKeyRefusal(app().db.sequelize, prod)).to.match(/^VOUCHER_ENCRYPTION_KEY is required in production/)
    expect(await voucherKeyRefusal(app().db.sequelize, { ...prod, VOUCHER_ENCRYPTION_KEY: 'ab'.repeat(32) })).to.equal(null)
    expect(await voucherKeyRefusal(app().db.sequelize, { NODE_ENV: 'development' })).to.equal(null)
  })

  it('200 paid purchases of one card against a stock of 150: 150 sold, none twice, 50 refunded once each, stock 0, the admins alerted once', async () => {
    const admin = await adminClient()
    await sql(`UPDATE users SET phone = '0209990001' WHERE role = 'ADMIN' RETURNING id`)
    const productId = await checkerWithStock(admin, 150)
    const tids: string[] = []
    for (let i = 0; i < 200; i++) {
      const p = await app().services.vouchers.buy({ productId, quantity: 1, payerPhone: phoneOf(i), payerNetwork: 'MTN' }, { ip: `10.0.${i % 250}.1` })
      tids.push(p.transactionId)
    }
    // Every payment's success arrives at once (webhooks, callbacks): each settles in its own transaction.
    const outs = await Promise.all(
      tids.map((tid) => app().services.payments.settle(tid, { status: 'SUCCESS', message: 'Approved', amountPesewas: 2000, currency: 'GHS' }))
    )
    expect(outs.filter((o) => o.settled)).to.have.length(200)

    expect(await count(`voucher_cards WHERE status = 'SOLD'`)).to.equal(150)
    expect(await count(`(SELECT DISTINCT payment_transaction_id FROM voucher_cards WHERE status = 'SOLD') s`)).to.equal(150)
    expect(await count(`voucher_cards WHERE status = 'AVAILABLE'`)).to.equal(0)
    const refunds = await sql<{ transaction_id: string; kind: string; amount_pesewas: number }>(`SELECT transaction_id, kind, amount_pesewas FROM refunds`)
    expect(refunds).to.have.length(50)
    expect(new Set(refunds.map((r) => r.transaction_id)).size).to.equal(50)
    expect(refunds.every((r) => r.kind === 'full' && r.amount_pesewas === 2000)).to.equal(true)
    // No refunded payment holds a card, and each is on the admins' attention list.
    expect(await count(`voucher_cards WHERE payment_transaction_id IN (:t)`, { t: refunds.map((r) => r.transaction_id) })).to.equal(0)
    expect(await count(`payment_issues WHERE kind = 'out_of_stock'`)).to.equal(50)
    expect(await count(`admin_messages WHERE title = 'Low stock: BECE checker'`)).to.equal(1)
    expect(await count(`sms_outbox WHERE to_phone = '0209990001'`)).to.equal(1)

    await app().services.queue.drain()
    expect(await count(`payments WHERE status = 'REFUNDED'`)).to.equal(50)
    expect(await count(`refunds WHERE status = 'PROCESSED'`)).to.equal(50)
    const [product] = (await admin.get('/api/vouchers/admin/products')).body.products
    expect(product.stock).to.deep.equal({ available: 0, sold: 150, expired: 0, voided: 0 })
  })

  it('an agent pays from the wallet at the agent price; a voided card is never sold', async () => {
    const admin = await adminClient()
    const productId = await checkerWithStock(admin, 2)
    const a = await agentWithBalance(100)
    const bought = await a.c.post('/api/vouchers/orders', { productId, quantity: 2, payFrom: 'wallet' })
    expect(bought.status, JSON.stringify(bought.body)).to.equal(201)
    expect(bought.body.purchase.amount).to.equal(36)
    expect(bought.body.purchase.cards.map((c: any) => c.pin)).to.deep.equal(['9000000001', '9000000002'])
    expect((await a.c.get('/api/wallet')).body.balance).to.equal(64)
    // The stock check refuses more than is left before any money moves.
    const refused = await a.c.post('/api/vouchers/orders', { productId, quantity: 1, payFrom: 'wallet' })
    expect(refused.status).to.equal(409)
    expect(refused.body.error).to.equal('BECE checker is out of stock')
    expect((await a.c.post('/api/vouchers/orders', { productId, quantity: 11, payFrom: 'wallet' })).body.error).to.equal('Quantity must be from 1 to 10')

    await admin.post('/api/vouchers/admin/stock', { productId, format: 'paste', content: 'Z0001,7777' })
    const [z] = await sql(`SELECT id FROM voucher_cards WHERE serial = 'Z0001'`)
    expect((await admin.post(`/api/vouchers/admin/cards/${z.id}/void`, { reason: '' })).body.error).to.equal('A reason of at least 3 characters is required')
    // The card's id before the body, as it always was.
    expect((await admin.post('/api/vouchers/admin/cards/abc/void', { reason: '' })).body.error).to.equal('Invalid card')
    expect((await admin.post(`/api/vouchers/admin/cards/${z.id}/void`, { reason: 'Reported used' })).status).to.equal(200)
    expect((await admin.post(`/api/vouchers/admin/cards/${z.id}/void`, { reason: 'Reported used' })).status).to.equal(409)
    const [sold] = await sql(`SELECT id FROM voucher_cards WHERE status = 'SOLD' LIMIT 1`)
    expect((await admin.post(`/api/vouchers/admin/cards/${sold.id}/void`, { reason: 'Too late' })).body.error).to.equal(
      'This card has been sold and cannot be voided'
    )
    expect((await a.c.post('/api/vouchers/orders', { productId, quantity: 1, payFrom: 'wallet' })).status).to.equal(409)
    // The admins' list of sold cards: masked PINs and the buyer.
    const list = await admin.get('/api/vouchers/admin/sold')
    expect(list.body.total).to.equal(2)
    expect(list.body.cards[0].pin).to.match(/^•+0[12]$/)
    expect(list.body.cards[0].buyer).to.include('(agent,')
  })

  it('a card locked by another settlement is passed by (SKIP LOCKED): the buyer gets what there is and the rest back in the wallet, once', async () => {
    const admin = await adminClient()
    const productId = await checkerWithStock(admin, 2)
    const a = await agentWithBalance(100)
    const actor = await app().services.auth.loadActor(a.user.id)
    const [held] = await sql(`SELECT id FROM voucher_cards WHERE serial = 'S0002'`)
    const out = await app().db.sequelize.transaction(async (t) => {
      await app().db.sequelize.query('SELECT id FROM voucher_cards WHERE id = :id FOR UPDATE', { replacements: { id: held.id }, transaction: t })
      return app().services.vouchers.buyFromWallet({ productId, quantity: 2 }, { user: actor })
    })
    expect((await app().services.vouchers.cardsOf(out.transactionId)).map((c) => c.serial)).to.deep.equal(['S0001'])
    expect(await sql(`SELECT kind, amount_pesewas FROM refunds WHERE transaction_id = :t`, { t: out.transactionId })).to.deep.equal([
      { kind: 'shortfall', amount_pesewas: 1800 }
    ])
    expect(await count(`payment_issues WHERE kind = 'out_of_stock'`)).to.equal(1)
    await app().services.queue.drain()
    await app().services.queue.drain()
    expect((await a.c.get('/api/wallet')).body.balance).to.equal(82)
    expect(await count(`wallet_entries WHERE type = 'REFUND' AND payment_transaction_id = :t`, { t: out.transactionId })).to.equal(1)
    expect(await count(`voucher_cards WHERE status = 'AVAILABLE'`)).to.equal(1)
  })

  it('USSD: an agent dials, buys one checker from the wallet, and the END screen and the SMS carry the card', async () => {
    const admin = await adminClient()
    await checkerWithStock(admin, 2)
    const { agent, pin } = await ussdAgent({ phone: '0241150001' })
    expect((await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 20, direction: 'CREDIT', reason: 'float' })).status).to.equal(200)
    const phone = new AtPhone('+233241150001')
    await phone.dial()
    await phone.send(pin)
    expect((await phone.send('5')).text).to.equal('Result checkers:\n1. BECE checker GHS 18.00\n0 Back 00 Menu')
    expect((await phone.send('1')).text).to.equal('How many cards (1-3)?\n0 Back 00 Menu')
    expect((await phone.send('4')).text).to.equal('Enter 1 to 3.\nHow many cards (1-3)?\n0 Back 00 Menu')
    expect((await phone.send('1')).text).to.equal('BECE checker x1\nTotal: GHS 18.00\n1. Pay from wallet (GHS 20.00)\n0 Back 00 Menu')
    const done = await phone.send('1')
    expect(done.end, done.body).to.equal(true)
    const [p] = await sql(`SELECT transaction_id, status, gateway FROM payments WHERE purpose = 'voucher'`)
    expect(p).to.include({ status: 'SUCCESS', gateway: 'wallet' })
    expect(done.text).to.equal(`S/N S0001 PIN 9000000001\nRef ${p.transaction_id.slice(-8)}. Also sent by SMS.`)
    expect(done.body.length).to.be.at.most(182)
    expect((await admin.get('/api/wallet/agents/' + agent.id)).body.balance).to.equal(2)
    const sms = await admin.get('/api/delivery/sms?phone=0241150001')
    expect(sms.body.messages.map((m: any) => m.message)).to.deep.equal(['Your BECE checker: S/N S0001 PIN 9000000001. Check at https://eresults.waecgh.org'])
  })
})
