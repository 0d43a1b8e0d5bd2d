import { expect } from 'chai'
import { SUSPENDED_BY_PARENT } from '../../server/services/pricing/index.ts'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'
import { agentIn, credit, q, seedTiers, tierIds } from '../helpers/tiers.ts'

/**
 * A wallet order over the reseller API: the price rule's read (the agent, its parent, the tiers, the tiers' prices for
 * the package) is made by the API key's statement, which already knows the key's agent and reads the package
 * (ADR 0068). The price is still decided by the one rule from rows read for this request; a sub-agent's parent prices
 * are still read FOR SHARE inside the order's transaction (ADR 0041).
 */
const PRICE_RULE = /\b(tier_prices|agents a LEFT JOIN agents p)\b/
/** The statements sent inside the order's transaction. */
const inTransaction = (sent: string[]) => sent.slice(sent.findIndex((s) => /^START TRANSACTION/.test(s)))

async function keyOf(c: Client) {
  const api = new Client()
  const key = await c.post('/api/reseller/keys', { name: 'Priced' })
  expect(key.status, key.text).to.equal(201)
  api.bearer = key.body.key
  return api
}

const walletOf = async (agentId: number) =>
  Number((await q<{ b: string }>('SELECT balance_pesewas AS b FROM wallets WHERE agent_id = :agentId', { agentId }))[0]!.b)

describe("a wallet order over the reseller API: the price rule read by the key's statement (ADR 0068)", function () {
  this.timeout(30_000)
  let pkg: Record<string, any>
  beforeEach(async () => {
    await resetDb()
    await seedTiers()
    pkg = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 600, priceAgentPesewas: 500 })
  })

  it("a tiered agent's order: its tier's price, read by the key's statement and by no statement in the transaction; a price changed since is the next order's", async () => {
    const t = await tierIds()
    const admin = await adminClient()
    expect((await admin.put(`/api/admin/tiers/prices/${pkg.id}`, { prices: [{ tierId: t['Super agent'], price: 4.8 }] })).status).to.equal(200)
    const buyer = await agentIn(t['Super agent'], '0241600001')
    await credit(buyer.agent.id, 20)
    const api = await keyOf(buyer.c)
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0201112222' }, { 'Idempotency-Key': 'p-1' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order.amount).to.equal(4.8)
    const [keyRead] = sent.filter((s) => /\bFROM api_keys\b/.test(s))
    expect(keyRead, sent.join('\n')).to.match(/\bFROM tier_prices\b/)
    expect(
      sent.filter((s) => PRICE_RULE.test(s)),
      sent.join('\n')
    ).to.deep.equal([keyRead])
    expect(
      inTransaction(sent).filter((s) => /\b(tiers|tier_prices)\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // Never kept between requests: the admin's new price is the next order's.
    expect((await admin.put(`/api/admin/tiers/prices/${pkg.id}`, { prices: [{ tierId: t['Super agent'], price: 4.6 }] })).status).to.equal(200)
    const next = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0201112222' }, { 'Idempotency-Key': 'p-2' })
    expect(next.status, next.text).to.equal(201)
    expect(next.body.order.amount).to.equal(4.6)
    // So is a move to another tier.
    expect((await admin.put(`/api/admin/tiers/agents/${buyer.agent.id}`, { tierId: t.Agent })).status).to.equal(200)
    const moved = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0201112222' }, { 'Idempotency-Key': 'p-3' })
    expect(moved.status, moved.text).to.equal(201)
    expect(moved.body.order.amount).to.equal(5)
    expect(await walletOf(buyer.agent.id)).to.equal(2000 - 480 - 460 - 500)
  })

  it("a sub-agent's order: its parent's price, the parent's price rows still read FOR SHARE in the transaction, the parent's margin on the order", async () => {
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241600011')
    const sub = await agentIn(t.Agent, '0241600012', dealer.agent.id)
    expect((await dealer.c.put('/api/sub-agents/mine/prices', { prices: [{ packageId: pkg.id, price: 5.3 }] })).status).to.equal(200)
    await credit(sub.agent.id, 10)
    const api = await keyOf(sub.c)
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0201112222' }, { 'Idempotency-Key': 's-1' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order.amount).to.equal(5.3)
    expect(
      inTransaction(sent).filter((s) => /\bFROM sub_agent_prices\b[\s\S]*\bFOR SHARE\b/.test(s)),
      sent.join('\n')
    ).to.have.length(1)
    expect(
      sent.filter((s) => PRICE_RULE.test(s)),
      sent.join('\n')
    ).to.have.length(1)
    const [o] = await q('SELECT parent_agent_id, parent_price_pesewas, parent_margin_pesewas FROM orders WHERE id = :id', { id: out.body.order.id })
    expect([o.parent_agent_id, Number(o.parent_price_pesewas), Number(o.parent_margin_pesewas)]).to.deep.equal([dealer.agent.id, 500, 30])
    expect(await walletOf(sub.agent.id)).to.equal(1000 - 530)
  })

  it('a sub-agent its parent suspended is refused with the same answer and nothing written, its key left free', async () => {
    const t = await tierIds()
    const dealer = await agentIn(t.Dealer, '0241600021')
    const sub = await agentIn(t.Agent, '0241600022', dealer.agent.id)
    await credit(sub.agent.id, 10)
    const api = await keyOf(sub.c)
    await q('UPDATE agents SET suspended_by_parent_at = now() WHERE id = :id RETURNING id', { id: sub.agent.id })
    const refused = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0201112222' }, { 'Idempotency-Key': 'x-1' })
    expect(refused.status, refused.text).to.equal(403)
    expect(refused.body.error).to.equal(SUSPENDED_BY_PARENT)
    expect(await q('SELECT id FROM orders')).to.deep.equal([])
    expect(await q('SELECT key FROM idempotency_keys')).to.deep.equal([])
    expect(await walletOf(sub.agent.id)).to.equal(1000)
    // Lifted: the same key places the order.
    await q('UPDATE agents SET suspended_by_parent_at = NULL WHERE id = :id RETURNING id', { id: sub.agent.id })
    const placed = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0201112222' }, { 'Idempotency-Key': 'x-1' })
    expect(placed.status, placed.text).to.equal(201)
  })

  it("an order naming its bundle by network and size: no package for the key's statement to read, so the price rule is read in the transaction as before", async () => {
    const t = await tierIds()
    const admin = await adminClient()
    expect((await admin.put(`/api/admin/tiers/prices/${pkg.id}`, { prices: [{ tierId: t['Super dealer'], price: 4.4 }] })).status).to.equal(200)
    const buyer = await agentIn(t['Super dealer'], '0241600031')
    await credit(buyer.agent.id, 10)
    const api = await keyOf(buyer.c)
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { network: 'MTN', dataSizeMB: 2048, recipientNumber: '0201112222' }, { 'Idempotency-Key': 'n-1' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order.amount).to.equal(4.4)
    expect(
      inTransaction(sent).filter((s) => PRICE_RULE.test(s)),
      sent.join('\n')
    ).to.have.length(1)
    expect(await app().services.wallet.balancePesewas(buyer.agent.id)).to.equal(1000 - 440)
  })
})
