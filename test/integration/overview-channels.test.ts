import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createOrder } from '../helpers/factories.ts'
import { adminClient, type Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// The overview's per-channel figures and checker sales per product, for the picked range (ADR 0042).
const DAY = 86_400_000
const sql = (q: string, replacements: Record<string, unknown> = {}) => app().db.sequelize.query(q, { replacements, type: QueryTypes.SELECT })

/** A paid checker purchase of `quantity` cards by a visitor, settled as the gateway would. */
async function sellCards(productId: number, quantity: number, unitPesewas: number, i: number) {
  const p = await app().services.vouchers.buy({ productId, quantity, payerPhone: `02450000${10 + i}`, payerNetwork: 'MTN' }, { ip: `10.1.0.${i}` })
  const out = await app().services.payments.settle(p.transactionId, {
    status: 'SUCCESS',
    message: 'Approved',
    amountPesewas: unitPesewas * quantity,
    currency: 'GHS'
  })
  expect(out.settled).to.equal(true)
  return p.transactionId
}

describe('overview: orders per channel and checker sales per product', function () {
  this.timeout(60_000)
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    app().services.adminStats.invalidate() // figures are cached per instance
    admin = await adminClient()
  })

  it('counts every order of the range by its channel and sums the paid ones exactly; older orders stay out', async () => {
    const now = Date.now()
    await createOrder({ channel: 'web', paymentStatus: 'SUCCESS', amountPesewas: 450 })
    await createOrder({ channel: 'web', paymentStatus: 'SUCCESS', amountPesewas: 1205, createdAt: new Date(now - 3 * DAY) })
    await createOrder({ channel: 'web', paymentStatus: 'FAILED', amountPesewas: 700 })
    await createOrder({ channel: 'ussd', paymentStatus: 'SUCCESS', amountPesewas: 333 })
    await createOrder({ channel: 'ussd', paymentStatus: 'PENDING', amountPesewas: 500 })
    await createOrder({ channel: 'whatsapp', paymentStatus: 'SUCCESS', amountPesewas: 1999, createdAt: new Date(now - 5 * DAY) })
    await createOrder({ channel: 'api', paymentStatus: 'SUCCESS', amountPesewas: 101 })
    await createOrder({ channel: 'api', paymentStatus: 'SUCCESS', amountPesewas: 99 })
    // Outside the 7 days (still inside 30): counted only by the longer range.
    await createOrder({ channel: 'whatsapp', paymentStatus: 'SUCCESS', amountPesewas: 5000, createdAt: new Date(now - 12 * DAY) })

    const week = await admin.get('/api/admin/analytics?range=7d')
    expect(week.status).to.equal(200)
    expect(week.body.channelBreakdown).to.deep.equal({
      web: { count: 3, revenue: 16.55 },
      ussd: { count: 2, revenue: 3.33 },
      whatsapp: { count: 1, revenue: 19.99 },
      api: { count: 2, revenue: 2 }
    })
    const channels = Object.values(week.body.channelBreakdown as Record<string, { count: number; revenue: number }>)
    expect(
      channels.reduce((s, c) => s + c.count, 0),
      'channels add up to the total'
    ).to.equal(week.body.totalOrders)

    const today = await admin.get('/api/admin/analytics?range=today')
    expect(today.body.channelBreakdown).to.deep.equal({
      web: { count: 2, revenue: 4.5 },
      ussd: { count: 2, revenue: 3.33 },
      whatsapp: { count: 0, revenue: 0 },
      api: { count: 2, revenue: 2 }
    })
    const month = await admin.get('/api/admin/analytics?range=30d')
    expect(month.body.channelBreakdown.whatsapp).to.deep.equal({ count: 2, revenue: 69.99 })
  })

  it('counts checker cards sold per product with their revenue; cards sold before the range stay out', async () => {
    const bece = await checkerWithStock(admin, 10)
    const wassce = await checkerWithStock(admin, 0, { name: 'WASSCE checker', priceUser: 25.5 })
    const more = await admin.post('/api/vouchers/admin/stock', {
      productId: wassce,
      format: 'paste',
      content: 'W0001,8000000001\nW0002,8000000002\nW0003,8000000003'
    })
    expect(more.status).to.equal(201)
    await sellCards(bece, 2, 2000, 1)
    await sellCards(bece, 1, 2000, 2)
    await sellCards(wassce, 1, 2550, 3)
    const old = await sellCards(wassce, 2, 2550, 4)
    await sql(`UPDATE voucher_cards SET sold_at = now() - interval '10 days' WHERE payment_transaction_id = :old`, { old })

    const week = await admin.get('/api/admin/analytics?range=7d')
    expect(week.status).to.equal(200)
    expect(week.body.checkerSales).to.deep.equal([
      { productId: bece, product: 'BECE checker', cards: 3, revenue: 60 },
      { productId: wassce, product: 'WASSCE checker', cards: 1, revenue: 25.5 }
    ])
    const month = await admin.get('/api/admin/analytics?range=30d')
    expect(month.body.checkerSales[1]).to.deep.equal({ productId: wassce, product: 'WASSCE checker', cards: 3, revenue: 76.5 })
  })
})
