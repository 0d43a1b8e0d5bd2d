import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsOf, fundedAgent } from '../helpers/order-statements.ts'

describe('placing an order: statements and commits (ADR 0046)', () => {
  beforeEach(resetDb)

  it("a wallet order over the reseller API: two statements, the key's with the price rule's read, then the order with its audit entry, its Idempotency-Key, its payment and the debit in one autocommitted statement", async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Counted' })).body.key
    // A first order, so the key's "last used" mark and the settings are as any later order finds them.
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    const { out, statements, flushes, sent, events, named } = await statementsOf(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'counted-1' })
    )
    // The key's request counter and its user need only the key's row: counted and read by the key's own statement,
    // not statements of their own.
    const [keyRead] = sent.filter((s) => /\bFROM api_keys\b/.test(s))
    expect(keyRead, sent.join('\n')).to.match(/INSERT INTO rate_limits\b/)
    expect(keyRead, sent.join('\n')).to.match(/\busers u LEFT JOIN agents a\b/)
    expect(
      sent.filter((s) => /^INSERT INTO rate_limits\b|^SELECT u\.id\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The Idempotency-Key's earlier use is read by the key's statement too (it knows the key's agent), not by one of its own.
    expect(keyRead, sent.join('\n')).to.match(/\bLEFT JOIN idempotency_keys\b/)
    expect(
      sent.filter((s) => /^SELECT [^(]*\bFROM idempotency_keys\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order).to.include({ paymentStatus: 'SUCCESS', recipientNumber: '0241112211' })
    expect(flushes, sent.join('\n')).to.equal(1)
    // 9: no delivery job in the order's transaction (the delivery pump claims it, ADR 0063); the Idempotency-Key's
    // earlier use and the package read by the key's statement, the payment and the debit written by the order's (ADR 0065);
    // the price rule's read made by the key's statement too, and settlement's audit entry written by the answer's read (ADR 0068);
    // the order and its payment written already paid, with the commission, by the order's statement: no settling UPDATE (ADR 0072);
    // the agent's webhook URL read by the order's statement, so the webhook subscriber reads nothing for an agent without one,
    // and the agent's text written by the order's statement (ADR 0075); settlement's audit entry written by the order's
    // statement too, which returns the answer's orders_view row, and that statement is its own transaction: no START,
    // no COMMIT (ADR 0079).
    expect(statements, sent.join('\n')).to.equal(2)
    expect(
      sent.filter((s) => /^INSERT INTO sms_outbox\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(
      sent.filter((s) => /\bFROM orders_view o JOIN agents a\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The path's own reads go by name, parsed and planned once per connection: the key with its counter, its user,
    // the Idempotency-Key's earlier use and the price rule.
    expect(
      sent.filter((s) => /\bFROM (api_keys|users|idempotency_keys|agents a LEFT JOIN agents p)\b/.test(s) && !named.includes(s)),
      'sent without a name'
    ).to.deep.equal([])
    // The Idempotency-Key is recorded by the order's own statement, with its audit entry, and so are the payment, the
    // debit and its ledger entry; the debit's UPDATE is fed by the payment, the payment by the key (ADR 0065).
    const [placing] = sent.filter((s) => /INSERT INTO orders\b/.test(s))
    expect(placing, sent.join('\n')).to.match(/INSERT INTO idempotency_keys\b/)
    expect(placing, sent.join('\n')).to.match(/INSERT INTO payments\b[\s\S]*\bFROM o, also RETURNING\b/)
    expect(placing, sent.join('\n')).to.match(/UPDATE wallets SET\b[\s\S]*\bFROM p\b/)
    expect(placing, sent.join('\n')).to.match(/INSERT INTO wallet_entries\b/)
    expect(
      sent.filter((s) => /^WITH p AS \(\s*INSERT INTO payments\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(
      sent.filter((s) => /^INSERT INTO idempotency_keys\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The package the body names is read by the key's statement too: before the transaction, one statement in one round trip.
    expect(keyRead, sent.join('\n')).to.match(/\bFROM packages WHERE id = \$4::int AND active\b/)
    expect(sent[1], sent.join('\n')).to.match(/^WITH o AS \(\s*INSERT INTO orders\b/)
    expect(
      sent.filter((s) => /^(START|BEGIN|COMMIT)\b/i.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The price rule's reads (the agent, the tiers, the tiers' prices) are the key's statement's, and no audit entry is
    // written alone: the order's and the payment's come with the order (ADR 0068, 0079).
    expect(
      sent.filter((s) => /\b(tiers|tier_prices|agents a LEFT JOIN agents p)\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([keyRead])
    expect(
      sent.filter((s) => /^INSERT INTO audit_logs/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(placing, sent.join('\n')).to.match(/\bpe AS \(INSERT INTO audit_logs\b/)
    expect(
      sent.filter((s) => /\bFROM orders_view\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(sent.slice(2), 'after the commit').to.deep.equal([])
    // The wallet moved once, by one conditional UPDATE: no row lock taken by a SELECT, no second write.
    expect(
      sent.filter((s) => /wallets/.test(s)),
      sent.join('\n')
    ).to.have.length(1)
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450 - 450)
  })

  it("a wallet order's package is read by the key's statement: one not on sale is refused as before, with no read of its own and nothing written", async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Packages' })).body.key
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112240' }, { 'Idempotency-Key': 'warm' })).status).to.equal(201)
    const off = await createPackage({ priceAgentPesewas: 450, active: false })
    const { out, sent } = await statementsOf(() =>
      api.post('/api/v1/orders', { packageId: off.id, recipientNumber: '0241112241' }, { 'Idempotency-Key': 'off-sale' })
    )
    expect(out.status, out.text).to.equal(400)
    expect(out.body.error).to.equal('Please select a package')
    expect(sent, sent.join('\n')).to.have.length(1)
    expect(sent[0], sent.join('\n')).to.match(/\bFROM packages WHERE id = \$4::int AND active\b/)
    // A package id sent as text is the same package, read the same way.
    const { out: asText, sent: sentAsText } = await statementsOf(() =>
      api.post('/api/v1/orders', { packageId: String(pkg.id), recipientNumber: '0241112242' }, { 'Idempotency-Key': 'as-text' })
    )
    expect(asText.status, asText.text).to.equal(201)
    expect(
      sentAsText.filter((s) => /\bFROM packages\b/.test(s) && !/\bFROM api_keys\b/.test(s)),
      sentAsText.join('\n')
    ).to.deep.equal([])
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450 - 450)
  })

  it("a wallet order's retry with its Idempotency-Key is answered from the key's statement: the key, then the order read back, nothing placed", async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Replayed' })).body.key
    const body = { packageId: pkg.id, recipientNumber: '0241112233' }
    const first = await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'replayed-1' })
    expect(first.status, first.text).to.equal(201)
    const { out, sent } = await statementsOf(() => api.post('/api/v1/orders', body, { 'Idempotency-Key': 'replayed-1' }))
    expect(out.status, out.text).to.equal(201)
    expect(out.headers.get('idempotent-replayed')).to.equal('true')
    expect(out.body.order).to.deep.equal(first.body.order)
    // The key's statement read the earlier use; the only other statement reads the order it made.
    expect(sent, sent.join('\n')).to.have.length(2)
    expect(sent[0], sent.join('\n')).to.match(/\bLEFT JOIN idempotency_keys\b/)
    expect(sent[1], sent.join('\n')).to.match(/\bFROM orders_view\b/)
    // Another body under the same key is still refused, and no money moved for either.
    const other = await statementsOf(() => api.post('/api/v1/orders', { ...body, recipientNumber: '0241112234' }, { 'Idempotency-Key': 'replayed-1' }))
    expect(other.out.status, other.out.text).to.equal(422)
    expect(other.sent, other.sent.join('\n')).to.have.length(1)
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450)
  })
})

describe('a wallet order over the reseller API: its Idempotency-Key read before anything is placed (ADR 0046, 0065)', () => {
  beforeEach(resetDb)

  it('a key used before answers with its order, even when this attempt is refused before it reads the key (platform closed since)', async () => {
    const { pkg, a, portal } = await fundedAgent()
    const api = new Client()
    api.bearer = (await portal.post('/api/reseller/keys', { name: 'Replays' })).body.key
    const body = { packageId: pkg.id, recipientNumber: '0241112200' }
    const first = await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'once' })
    expect(first.status, first.text).to.equal(201)
    expect((await (await adminClient()).put('/api/settings', { platformOpen: false })).status).to.equal(200)
    const again = await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'once' })
    expect(again.status, again.text).to.equal(201)
    expect(again.headers.get('idempotent-replayed')).to.equal('true')
    expect(again.body.order.id).to.equal(first.body.order.id)
    // A new key is refused as the platform says, and nothing more is paid.
    expect((await api.post('/api/v1/orders', body, { 'Idempotency-Key': 'twice' })).status).to.equal(403)
    const [w] = await app().db.sequelize.query<{ balance_pesewas: string }>('SELECT balance_pesewas FROM wallets WHERE agent_id = :id', {
      replacements: { id: a.agent.id },
      type: QueryTypes.SELECT
    })
    expect(Number(w!.balance_pesewas)).to.equal(2000 - 450)
  })
})
