import { expect } from 'chai'
import type { Running } from '../../server/index.ts'
import * as factories from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { bootInstance } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'
import { down } from '../../models/migrations/381_overview_not_told_by_orders_payments.ts'

const browser = { 'User-Agent': 'Mozilla/5.0', Accept: 'text/html' }

// Writes to `orders` and `payments` no longer tell the admin overview (ADR 0059: each such notice made the
// write's commit wait on PostgreSQL's one notify lock); the kept overview lives 5 s instead, on every instance,
// the one that took the order included. Both instances here age their kept data by one clock the test moves.
describe('the admin overview: kept a few seconds, not told by orders and payments', () => {
  let clock = Date.now()
  const now = () => clock
  let here: Running | undefined
  let there: Running | undefined
  before(async () => {
    here = await bootInstance({}, undefined, now)
    there = await bootInstance({}, undefined, now)
  })
  after(async () => {
    await here?.stop()
    await there?.stop()
  })
  beforeEach(resetDb)

  const overview = async (c: Client) => {
    const r = await c.get('/admin/overview', browser)
    expect(r.status).to.equal(200)
    return r.text as string
  }
  const figure = (html: string, label: string) => new RegExp(`${label}</(?:p|th)><(?:p|td) class="[^"]*">([^<]*)<`).exec(html)?.[1]
  const figures = async (c: Client) => {
    const html = await overview(c)
    return { orders: figure(html, 'Total orders'), revenue: figure(html, 'Data revenue \\(GHS\\)'), liability: figure(html, 'Wallet liability \\(GHS\\)') }
  }

  it("shows a paid order after the overview's 5 s on both instances, and a wallet credit at once", async () => {
    const admins = [await adminClient(here!.url), await adminClient(there!.url)]
    for (const a of admins) expect(await figures(a)).to.deep.equal({ orders: '0', revenue: 'GH₵0.00', liability: 'GH₵0.00' })

    // A visitor's order, placed and paid through the instance `here`: it writes orders and payments.
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const placed = await new Client(here!.url).post('/api/orders', {
      packageId: pkg,
      recipientNumber: '0201112222',
      payerPhone: '0241230002',
      payerNetwork: 'MTN'
    })
    expect(placed.status).to.equal(201)
    await here!.services.simulator.approve(placed.body.payment.transactionId)
    const [paid] = await app().db.sequelize.query<{ payment_status: string; amount_pesewas: number }>('SELECT payment_status, amount_pesewas FROM orders', {
      type: 'SELECT' as never
    })
    expect(paid!.payment_status).to.equal('SUCCESS')

    // Within the lifetime: the figures the overview was loaded with, on both instances.
    clock += 4999
    for (const a of admins) expect(await figures(a)).to.deep.equal({ orders: '0', revenue: 'GH₵0.00', liability: 'GH₵0.00' })

    clock += 1
    const revenue = `GH₵${(paid!.amount_pesewas / 100).toFixed(2)}`
    for (const a of admins) expect(await figures(a)).to.deep.equal({ orders: '1', revenue, liability: 'GH₵0.00' })

    // Wallets still tell every instance: a credit shows on the next load, without the clock moving.
    const agent = await factories.createAgent({ name: 'Ama Owusu' })
    expect((await admins[1]!.post(`/api/wallet/agents/${agent.agent.id}/adjust`, { amount: 3, direction: 'CREDIT', reason: 'Cash paid in' })).status).to.equal(
      200
    )
    for (const a of admins) expect((await figures(a)).liability).to.equal('GH₵3.00')
  })

  it("down puts the overview's triggers on orders and payments back", async () => {
    const { sequelize } = app().db
    const names = "SELECT tgname FROM pg_trigger WHERE tgname IN ('orders_overview_page_notify', 'payments_overview_page_notify') ORDER BY 1"
    expect(await sequelize.query(names, { type: 'SELECT' as never })).to.deep.equal([])
    // Rolled back: the test database keeps the migrated schema.
    const t = await sequelize.transaction()
    try {
      await down({ context: (sql) => sequelize.query(sql, { transaction: t }) })
      expect(await sequelize.query(names, { type: 'SELECT' as never, transaction: t })).to.deep.equal([
        { tgname: 'orders_overview_page_notify' },
        { tgname: 'payments_overview_page_notify' }
      ])
    } finally {
      await t.rollback()
    }
  })
})
