import { expect } from 'chai'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { agentIn, credit, earnings, q, seedTiers, tierIds } from '../helpers/tiers.ts'

// A sub-agent's bulk order is priced and recorded like its single orders (ADR 0039, 0041): each line
// carries its parent's price and margin, the parent earns that margin once per delivered line, and
// nothing on a line that failed and went back to the wallet.
const drain = () => app().services.queue.drain()
const lines = ['0241000001 1GB', '0241000002 1GB', '0241000003 1GB'].join('\n')

describe('bulk orders by sub-agents', () => {
  beforeEach(async () => {
    await resetDb()
    await seedTiers()
    await app().services.settings.update(
      {
        shopMaxMarkupType: 'PERCENT',
        shopMaxMarkupValue: 20,
        commissionEnabled: true,
        commissionPercentage: 10,
        deliveryMode: 'automatic',
        deliveryRetryLimit: 1
      },
      {}
    )
    app().services.delivery.simulatorControl({ mode: 'deliver' })
  })
  after(() => app().services.delivery.simulatorControl({ mode: 'deliver' }))

  /** A dealer, its sub-agent paying GH₵5.30 for the GH₵5.00 (agent price) MTN 1GB bundle. */
  async function family() {
    await app().db.models.Package.destroy({ where: {} })
    const pkg = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 600, priceAgentPesewas: 500 })
    app().services.packages.invalidate()
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241910001')
    const sub = await agentIn(t.Agent, '0241910002', dealer.agent.id)
    expect((await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 5.3 }] })).status).to.equal(200)
    return { pkg, dealer, sub }
  }

  const parentFields = (batchId: number) =>
    q<{ amount_pesewas: number; parent_agent_id: number; parent_price_pesewas: number; parent_margin_pesewas: number }>(
      'SELECT amount_pesewas, parent_agent_id, parent_price_pesewas, parent_margin_pesewas FROM orders WHERE batch_id = :b ORDER BY id',
      { b: batchId }
    )

  it('from the wallet: priced at the sub-agent price, each line carries its parent; the parent earns its margin once per delivered line and nothing on the failed one', async function () {
    this.timeout(60_000)
    const { dealer, sub } = await family()
    await credit(sub.agent.id, 20)
    const preview = await sub.c.post('/api/bulk/preview', { text: lines })
    expect(preview.status, preview.text).to.equal(200)
    expect(preview.body.lines.map((l: { price: number }) => l.price)).to.deep.equal([5.3, 5.3, 5.3])
    expect(preview.body.total).to.equal(15.9)

    const paid = await sub.c.post('/api/bulk', { text: lines, expectedTotal: 15.9 })
    expect(paid.status, paid.text).to.equal(201)
    const batchId = paid.body.batch.id as number
    expect(await parentFields(batchId)).to.deep.equal(
      Array.from({ length: 3 }, () => ({ amount_pesewas: 530, parent_agent_id: dealer.agent.id, parent_price_pesewas: 500, parent_margin_pesewas: 30 }))
    )
    // Margin wins over commission, as for a single sub-agent order.
    expect(await q(`SELECT id FROM commissions`)).to.have.length(0)

    app().services.delivery.simulatorControl({ mode: 'fail', count: 1 })
    for (let i = 0; i < 4; i++) await drain()
    const states = await q<{ id: number; delivery_status: string; payment_status: string }>(
      'SELECT id, delivery_status, payment_status FROM orders_view WHERE batch_id = :b ORDER BY id',
      { b: batchId }
    )
    expect(states.map((s) => s.delivery_status).sort()).to.deep.equal(['DELIVERED', 'DELIVERED', 'FAILED'])
    const failed = states.find((s) => s.delivery_status === 'FAILED')!
    expect(failed.payment_status).to.equal('REFUNDED')
    const delivered = states.filter((s) => s.delivery_status === 'DELIVERED').map((s) => s.id)

    // A second hearing of each delivery credits nothing more.
    await app().db.sequelize.transaction(async (t) => {
      for (const id of delivered) {
        const [o] = await q<{ id: number; parent_agent_id: number; parent_margin_pesewas: number }>(
          'SELECT id, parent_agent_id, parent_margin_pesewas FROM orders WHERE id = :id',
          { id }
        )
        expect(await app().services.subAgents.creditMargin(o!, t)).to.equal(null)
      }
    })
    const margins = (await earnings(dealer.c)).entries.filter((e) => e.type === 'SUB_AGENT_MARGIN')
    expect(margins.map((e) => [e.orderId, e.amount]).sort()).to.deep.equal(delivered.map((id) => [id, 0.3]).sort())
    // The wallet: the batch's one debit, the failed line's own amount back.
    expect(Number((await q<{ b: string }>('SELECT balance_pesewas AS b FROM wallets WHERE agent_id = :a', { a: sub.agent.id }))[0]!.b)).to.equal(
      2000 - 1590 + 530
    )

    // The parent-margin report shows exactly the two delivered lines, and no commission.
    const cards = await (await adminClient()).get('/api/commissions/summary')
    expect(cards.status, cards.text).to.equal(200)
    expect(cards.body).to.include({ totalParentMargin: 0.6, parentMarginOrders: 2, totalCommission: 0 })
  })

  it('by mobile money: the lines written at settlement carry the parent too', async function () {
    this.timeout(30_000)
    const { dealer, sub } = await family()
    const res = await sub.c.post('/api/bulk', { text: lines, pay: 'momo', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(res.status, res.text).to.equal(201)
    expect(res.body.batch).to.include({ status: 'AWAITING_PAYMENT', total: 15.9 })
    expect((await new Client().post(`/api/simulator/payments/${res.body.payment.transactionId}/approve`)).status).to.equal(200)
    expect(await parentFields(res.body.batch.id)).to.deep.equal(
      Array.from({ length: 3 }, () => ({ amount_pesewas: 530, parent_agent_id: dealer.agent.id, parent_price_pesewas: 500, parent_margin_pesewas: 30 }))
    )
    await drain()
    const margins = (await earnings(dealer.c)).entries.filter((e) => e.type === 'SUB_AGENT_MARGIN')
    expect(margins.map((e) => e.amount)).to.deep.equal([0.3, 0.3, 0.3])
  })
})
