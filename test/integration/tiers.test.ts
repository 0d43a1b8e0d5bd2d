import { expect } from 'chai'
import { toGhs } from '../../server/lib/money.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { agentIn, credit, earnings, q, seedTiers, signedIn, tierIds } from '../helpers/tiers.ts'
import { AtPhone } from '../helpers/ussd.ts'

// Dealer tiers, the one price rule and sub-agents (ADR 0041).
describe('tiers, one price rule, sub-agents', () => {
  let pkg: Record<string, any>
  beforeEach(async () => {
    await resetDb()
    await seedTiers()
    await app().services.settings.update(
      { shopMaxMarkupType: 'PERCENT', shopMaxMarkupValue: 20, commissionEnabled: true, commissionPercentage: 10, deliveryMode: 'automatic' },
      {}
    )
    pkg = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 600, priceAgentPesewas: 500 })
  })

  it('every channel charges each tier and a sub-agent the one price priceFor gives', async function () {
    this.timeout(90_000)
    const t = await tierIds()
    const admin = await adminClient()
    // Super agent 4.80, Dealer empty (= Super agent's), Super dealer 4.40
    const grid = await admin.put(`/api/admin/tiers/prices/${pkg.id}`, {
      prices: [
        { tierId: t['Super agent'], price: 4.8 },
        { tierId: t['Super dealer'], price: 4.4 }
      ]
    })
    expect(grid.status, grid.text).to.equal(200)
    const row = grid.body.packages.find((p: any) => p.id === pkg.id)
    expect(row.prices.map((p: any) => p.effective)).to.deep.equal([5, 4.8, 4.8, 4.4])

    const buyers = [
      await agentIn(t.Agent, '0241300001'),
      await agentIn(t['Super agent'], '0241300002'),
      await agentIn(t.Dealer, '0241300003'),
      await agentIn(t['Super dealer'], '0241300004')
    ]
    const dealer = buyers[2]!
    const sub = await agentIn(t.Agent, '0241300005', dealer.agent.id)
    const set = await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 5.1 }] })
    expect(set.status, set.text).to.equal(200)
    buyers.push(sub)

    const seen: number[] = []
    for (const [i, b] of buyers.entries()) {
      const actor = await app().services.auth.loadActor(b.user.id)
      const expected = toGhs((await app().services.pricing.priceFor(actor, pkg as any)).pricePesewas)!
      seen.push(expected)
      await credit(b.agent.id, 20)
      // web, gateway payment
      const web = await b.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payerPhone: b.agent.phone, payerNetwork: 'MTN' })
      expect(web.status, web.text).to.equal(201)
      // wallet
      const wallet = await b.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
      expect(wallet.status, wallet.text).to.equal(201)
      // the agent's own pages: place order and the price list
      // reseller API: the list and an order
      const key = await b.c.post('/api/reseller/keys', { name: 'Test' })
      expect(key.status, key.text).to.equal(201)
      const api = new Client()
      api.bearer = key.body.key
      const listed = (await api.get('/api/v1/packages')).body.packages.find((p: any) => p.id === pkg.id)
      const apiOrder = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0201112222' }, { 'Idempotency-Key': `k-${i}` })
      expect(apiOrder.status, apiOrder.text).to.equal(201)
      // USSD: the confirm screen's price, then a wallet purchase
      const phone = new AtPhone(b.agent.phone)
      await phone.dial()
      await phone.send(b.pin)
      await phone.send('1') // buy data
      const list = await phone.send('1') // MTN
      const line = list.text.split('\n').find((l) => /^\d\. 2(\.0)?GB/.test(l))
      expect(line, list.text).to.be.a('string')
      await phone.send(line!.slice(0, 1)) // this test's 2 GB bundle
      const confirm = await phone.send('1') // my number
      const ussdPrice = Number(/Price: GHS (\d+\.\d\d)/.exec(confirm.text)?.[1])
      const bought = await phone.send('2') // wallet
      expect(bought.end, bought.body).to.equal(true)
      // the agent's shop: its floor is its own price
      expect((await b.c.put('/api/shops/mine', { slug: `shop-${i}-x`, name: 'A shop', whatsapp: '', accent: '#1565c0' })).status).to.equal(200)
      const floor = (await b.c.get('/api/shops/mine')).body.prices.find((p: any) => p.packageId === pkg.id).floor

      const amounts = await q<{ channel: string; amount_pesewas: number }>('SELECT channel, amount_pesewas FROM orders WHERE agent_id = :id ORDER BY id', {
        id: b.agent.id
      })
      expect(amounts.map((o) => o.channel)).to.deep.equal(['web', 'web', 'api', 'ussd'])
      const charged = new Set([...amounts.map((o) => toGhs(Number(o.amount_pesewas))!), listed.price, ussdPrice, floor])
      expect([...charged], `buyer ${i}: ${JSON.stringify({ amounts, listed: listed.price, ussdPrice, floor })}`).to.deep.equal([expected])
    }
    // Agent 5.00, Super agent 4.80, Dealer 4.80, Super dealer 4.40, the Dealer's sub-agent 5.10
    expect(seen).to.deep.equal([5, 4.8, 4.8, 4.4, 5.1])
  })

  it("a sub-agent's order credits its parent the difference once under 5 concurrent delivery reports, records no commission, and a refund takes it back once", async function () {
    this.timeout(30_000)
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241400001')
    const sub = await agentIn(t.Agent, '0241400002', dealer.agent.id)
    expect((await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 5.3 }] })).status).to.equal(200)
    await credit(sub.agent.id, 10)
    const placed = await sub.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(placed.status, placed.text).to.equal(201)
    expect(placed.body.order.amount).to.equal(5.3)
    const orderId = placed.body.order.id as number
    const [o] = await q('SELECT parent_agent_id, parent_price_pesewas, parent_margin_pesewas, delivery_status FROM orders WHERE id = :orderId', { orderId })
    expect([o.parent_agent_id, Number(o.parent_price_pesewas), Number(o.parent_margin_pesewas)]).to.deep.equal([dealer.agent.id, 500, 30])
    expect(await q('SELECT id FROM commissions WHERE order_id = :orderId', { orderId })).to.have.length(0)
    expect((await earnings(dealer.c)).available).to.equal(0) // never at payment

    const reports = await Promise.all(Array.from({ length: 5 }, () => app().services.delivery.setDeliveryStatus(orderId, 'DELIVERED', {})))
    expect(reports.filter(Boolean)).to.have.length(1)
    let mine = await earnings(dealer.c)
    expect(mine.available).to.equal(0.3)
    expect(mine.entries.map((e) => [e.type, e.amount, e.orderId])).to.deep.equal([['SUB_AGENT_MARGIN', 0.3, orderId]])
    expect(await q(`SELECT id FROM audit_logs WHERE action = 'SUB_AGENT_MARGIN_CREDITED' AND resource_id = :id`, { id: String(orderId) })).to.have.length(1)

    const tid = placed.body.order.paymentTransactionId ?? placed.body.payment.transactionId
    await Promise.allSettled([app().services.payments.refund(tid, 'Never arrived'), app().services.payments.refund(tid, 'Asked twice')])
    await app().services.queue.drain()
    mine = await earnings(dealer.c)
    expect(mine.available).to.equal(0)
    expect(mine.entries.map((e) => [e.type, e.amount])).to.deep.equal([
      ['SUB_AGENT_MARGIN_REVERSAL', -0.3],
      ['SUB_AGENT_MARGIN', 0.3]
    ])

    // the parent's page shows the sub-agent's sale and what it earned from it (net of the refund)
    const page = await dealer.c.get('/api/sub-agents/mine')
    expect(page.status, page.text).to.equal(200)
    expect(page.body.subAgents[0]).to.include({ id: sub.agent.id, status: 'ACTIVE', earned: 0 })
  })

  it("the parent's price is refused below its own price or above the ceiling; only a tier that may invite gets a link; one level only", async () => {
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241500001')
    const low = await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 4.99 }] })
    expect(low.status).to.equal(400)
    expect(low.body.error).to.contain('below your own price of GH₵5.00')
    const high = await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 6.01 }] })
    expect(high.status).to.equal(400)
    expect(high.body.error).to.contain('above the maximum of GH₵6.00')
    expect(await q('SELECT * FROM sub_agent_prices')).to.have.length(0)

    const mine = await dealer.c.get('/api/sub-agents/mine')
    expect(mine.body.invitePath).to.match(/^\/agent\/register\?ref=[a-z2-9]{10}$/)
    const plain = await agentIn(t.Agent, '0241500002')
    expect((await plain.c.get('/api/sub-agents/mine')).body.invitePath).to.equal(null)

    // registering through the link makes a sub-agent of the inviter; a bad code is refused
    const ref = mine.body.invitePath.split('ref=')[1]
    const reg = await new Client().post('/api/agents/register', {
      name: 'Ama Sub',
      phone: '0241500003',
      email: 'ama-sub@test.local',
      password: 'password-123',
      ref
    })
    expect(reg.status, reg.text).to.equal(201)
    expect(reg.body.agent).to.include({ parentAgentId: dealer.agent.id })
    const bad = await new Client().post('/api/agents/register', {
      name: 'Kofi',
      phone: '0241500004',
      email: 'kofi@test.local',
      password: 'password-123',
      ref: 'nosuchcode'
    })
    expect(bad.status).to.equal(400)
    // a sub-agent cannot have sub-agents of its own, whoever writes
    let refused: unknown = null
    await q('UPDATE agents SET parent_agent_id = :sub WHERE id = :plain RETURNING id', { sub: reg.body.agent.id, plain: plain.agent.id }).catch(
      (e) => (refused = e)
    )
    expect(String(refused)).to.contain('one level only')
  })

  it('a parent suspends and reinstates its own sub-agent (no buying meanwhile, in any channel); another agent cannot', async () => {
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241550001')
    const other = await agentIn(t.Dealer, '0241550002')
    const sub = await agentIn(t.Agent, '0241550003', dealer.agent.id)
    await credit(sub.agent.id, 10)
    expect((await other.c.post(`/api/sub-agents/${sub.agent.id}/suspend`)).status).to.equal(404)
    const suspended = await dealer.c.post(`/api/sub-agents/${sub.agent.id}/suspend`)
    expect(suspended.status, suspended.text).to.equal(200)
    expect(suspended.body.subAgents[0]).to.include({ id: sub.agent.id, status: 'SUSPENDED' })
    const refused = await sub.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(refused.status).to.equal(403)
    expect(refused.body.error).to.contain('suspended')
    const dial = new AtPhone(sub.agent.phone)
    await dial.dial()
    await dial.send(sub.pin)
    await dial.send('1')
    expect((await dial.send('1')).body).to.match(/^END .*suspended/)
    expect(await q('SELECT id FROM orders')).to.have.length(0)
    expect((await dealer.c.post(`/api/sub-agents/${sub.agent.id}/reinstate`)).status).to.equal(200)
    const placed = await sub.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(placed.status, placed.text).to.equal(201)
    expect(await q(`SELECT action FROM audit_logs WHERE action IN ('SUB_AGENT_SUSPENDED','SUB_AGENT_REINSTATED') ORDER BY id`)).to.deep.equal([
      { action: 'SUB_AGENT_SUSPENDED' },
      { action: 'SUB_AGENT_REINSTATED' }
    ])
  })

  it('10 sub-agent orders at once during a price change each pay the price they confirmed', async function () {
    this.timeout(30_000)
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241600001')
    const sub = await agentIn(t.Agent, '0241600002', dealer.agent.id)
    expect((await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 5.2 }] })).status).to.equal(200)
    await credit(sub.agent.id, 100)
    const results = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        sub.c.post('/api/orders', { packageId: pkg.id, recipientNumber: `02411${String(10000 + i)}`, payFrom: 'wallet', price: 5.2 })
      ),
      dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 5.6 }] })
    ])
    const orders = results.slice(0, 10)
    for (const r of orders) expect([201, 409], r.text).to.include(r.status)
    for (const r of orders.filter((x) => x.status === 409)) expect(r.body.price).to.equal(5.6)
    const rows = await q<{ amount_pesewas: number; parent_margin_pesewas: number }>(
      'SELECT amount_pesewas, parent_margin_pesewas FROM orders WHERE agent_id = :id',
      { id: sub.agent.id }
    )
    expect(rows).to.have.length(orders.filter((x) => x.status === 201).length)
    for (const r of rows) expect([Number(r.amount_pesewas), Number(r.parent_margin_pesewas)]).to.deep.equal([520, 20])
    // the wallet paid exactly what was placed
    const [w] = await q<{ b: string }>('SELECT balance_pesewas AS b FROM wallets WHERE agent_id = :id', { id: sub.agent.id })
    expect(Number(w!.b)).to.equal(10000 - 520 * rows.length)
    // from now on the new price
    const after = await sub.c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(after.body.order.amount).to.equal(5.6)
  })

  it('the daily run promotes an agent once when its delivered sales pass a threshold, audited and told; its new price applies from then on', async function () {
    this.timeout(30_000)
    const t = await tierIds()
    const admin = await adminClient()
    expect((await admin.put(`/api/admin/tiers/prices/${pkg.id}`, { prices: [{ tierId: t['Super agent'], price: 4.7 }] })).status).to.equal(200)
    const saved = await admin.post('/api/admin/tiers', { id: t['Super agent'], name: 'Super agent', promoteAt: 10 })
    expect(saved.status, saved.text).to.equal(200)
    const a = await createAgent({ phone: '0241700001' })
    const c = await signedIn(a)
    await credit(a.agent.id, 30)
    const ids: number[] = []
    for (let i = 0; i < 2; i++) {
      const r = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
      expect(r.body.order.amount).to.equal(5)
      ids.push(r.body.order.id)
    }
    // GHS 10.00 paid but only 5.00 delivered: not yet
    await app().services.delivery.setDeliveryStatus(ids[0]!, 'DELIVERED', {})
    expect(await app().services.tiers.promoteDue()).to.deep.equal({ promoted: 0 })
    await app().services.delivery.setDeliveryStatus(ids[1]!, 'DELIVERED', {})
    const { runJob } = await import('../../jobs/index.ts')
    const deps = { services: app().services, log: app().services.deps.log }
    await runJob('tierPromotions', deps, (d) => d.services.tiers.promoteDue())
    expect(await app().services.tiers.promoteDue()).to.deep.equal({ promoted: 0 }) // a second run the same day: nothing
    const [row] = await q('SELECT tier_id FROM agents WHERE id = :id', { id: a.agent.id })
    expect(row.tier_id).to.equal(t['Super agent'])
    expect(await q(`SELECT id FROM audit_logs WHERE action = 'AGENT_TIER_PROMOTED' AND resource_id = :id`, { id: String(a.agent.id) })).to.have.length(1)
    expect(await q(`SELECT how FROM tier_changes WHERE agent_id = :id`, { id: a.agent.id })).to.deep.equal([{ how: 'PROMOTION' }])
    const inbox = await q(`SELECT m.title FROM admin_messages m JOIN admin_message_recipients r ON r.message_id = m.id WHERE r.user_id = :u`, { u: a.user.id })
    expect(inbox.map((m) => m.title)).to.deep.equal(['You are now in the Super agent tier'])
    const next = await c.post('/api/orders', { packageId: pkg.id, recipientNumber: '0201112222', payFrom: 'wallet' })
    expect(next.body.order.amount).to.equal(4.7)
  })
})
