import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { openApiDocument } from '../../server/services/reseller-api/openapi.ts'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client, type Res } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'
import { count, reseller, order } from '../helpers/reseller-api.ts'

// The reseller API (/api/v1), its keys, idempotency, rate limit, webhooks and OpenAPI document.

describe('reseller API /api/v1', () => {
  beforeEach(resetDb)

  it('API keys: shown once, stored hashed, listed with name and times; a wrong or revoked key is 401, an unapproved agent 403', async () => {
    const { agent, portal, api, key, keyId } = await reseller()
    expect(key).to.match(/^dh_live_[\w-]{43}$/)
    const [row] = await app().db.sequelize.query<any>('SELECT * FROM api_keys', { type: QueryTypes.SELECT })
    expect(row.key_hash).to.not.include(key.slice(8))
    expect(JSON.stringify(row)).to.not.include(key)
    const list = await portal.get('/api/reseller/keys')
    expect(list.body.keys).to.have.length(1)
    expect(list.body.keys[0]).to.include({ id: keyId, name: 'My shop' })
    expect(list.body.keys[0]).to.not.have.property('key')
    expect(list.body.keys[0].createdAt).to.be.a('string')
    expect(list.body.keys[0].lastUsedAt).to.equal(null)

    expect((await api.get('/api/v1/balance')).status).to.equal(200)
    expect((await portal.get('/api/reseller/keys')).body.keys[0].lastUsedAt).to.be.a('string')

    const wrong = new Client()
    wrong.bearer = `${key.slice(0, -2)}xx`
    expect((await wrong.get('/api/v1/balance')).status).to.equal(401)
    expect((await new Client().get('/api/v1/balance')).status).to.equal(401)
    // A session is not an API key.
    expect((await portal.get('/api/v1/balance')).status).to.equal(401)

    await app().db.models.Agent.update({ approved: false }, { where: { id: agent.id } })
    const unapproved = await api.get('/api/v1/packages')
    expect(unapproved.status).to.equal(403)
    await app().db.models.Agent.update({ approved: true }, { where: { id: agent.id } })

    expect((await portal.delete(`/api/reseller/keys/${keyId}`)).status).to.equal(200)
    expect((await api.get('/api/v1/balance')).status).to.equal(401)
    expect((await portal.delete(`/api/reseller/keys/${keyId}`)).status).to.equal(404)
    expect(await count(`audit_logs WHERE action IN ('API_KEY_CREATED','API_KEY_REVOKED')`)).to.equal(2)

    // An unapproved agent cannot make keys either.
    const un = await createAgent({ approved: false })
    const c = new Client()
    await c.login(un.user.email, un.password)
    expect((await c.post('/api/reseller/keys', { name: 'x' })).status).to.equal(403)
  })

  it('an order is checked once, by the rules every channel uses: the answers name the field, and nothing is written', async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { api, agent } = await reseller({}, 20)
    const refused = async (body: unknown, message: string) => {
      const res = await order(api, body, `check-${Math.random().toString(36).slice(2)}`)
      expect(res.status, res.text).to.equal(400)
      expect(res.body.error ?? res.body.message).to.equal(message)
    }
    // A field the API does not know is named before anything else is said about the order.
    await refused({ amount: 0.01 }, 'amount is not a field of an order')
    await refused({ packageId: pkg.id, recipientNumber: '0241234567', payFrom: 'gateway' }, 'payFrom is not a field of an order')
    await refused({}, 'Please select package and enter recipient number')
    await refused({ recipientNumber: '0241234567' }, 'Please select a package')
    await refused({ network: 'VODA', dataSizeMB: 1024, recipientNumber: '0241234567' }, 'Network must be MTN, TELECEL or AIRTELTIGO')
    await refused({ packageId: pkg.id }, 'Enter recipient number')
    expect(await count('orders WHERE agent_id = :id', { id: agent.id })).to.equal(0)
    // The key is bound to the number as sent: the same request again is the same order, the other form of it is not.
    const first = await order(api, { packageId: pkg.id, recipientNumber: '233241234567' }, 'intl-001')
    expect(first.status, first.text).to.equal(201)
    expect(first.body.order.recipientNumber).to.equal('0241234567')
    expect((await order(api, { packageId: String(pkg.id), recipientNumber: '233241234567' }, 'intl-001')).body.order.id).to.equal(first.body.order.id)
    expect((await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'intl-001')).status).to.equal(422)
  })

  it('the same Idempotency-Key gives one order, also when sent at once; a different body is 422; no key is 400', async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { api, agent } = await reseller({}, 20)
    expect((await order(api, { packageId: pkg.id, recipientNumber: '0241234567' })).status).to.equal(400)
    const first = await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'order-001')
    expect(first.status, first.text).to.equal(201)
    expect(first.body.order).to.include({ paymentStatus: 'SUCCESS', amount: 4.5, recipientNumber: '0241234567', channel: 'api', deliveryStatus: 'QUEUED' })
    const again = await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'order-001')
    expect(again.status).to.equal(201)
    expect(again.headers.get('idempotent-replayed')).to.equal('true')
    expect(again.body.order.id).to.equal(first.body.order.id)
    const burst = await Promise.all(
      Array.from({ length: 6 }, () => order(api, { network: 'mtn', dataSizeMB: 1024, recipientNumber: '0201112222' }, 'order-002'))
    )
    expect(burst.map((r) => r.status)).to.deep.equal([201, 201, 201, 201, 201, 201])
    expect(new Set(burst.map((r) => r.body.order.id)).size).to.equal(1)
    expect(await count('orders WHERE agent_id = :id', { id: agent.id })).to.equal(2)
    expect((await api.get('/api/v1/balance')).body).to.deep.equal({
      balance: Math.round((20 - 4.5 - burst[0]!.body.order.amount) * 100) / 100,
      currency: 'GHS'
    })
    const changed = await order(api, { packageId: pkg.id, recipientNumber: '0249999999' }, 'order-001')
    expect(changed.status).to.equal(422)
    expect((await order(api, { packageId: pkg.id, recipientNumber: '0241234567', amount: 0.01 }, 'order-003')).status).to.equal(400)
    expect((await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'bad key with spaces')).status).to.equal(400)
    // An uncovered order is refused and leaves its key free for a retry after a top-up.
    const big = await createPackage({ priceAgentPesewas: 5000 })
    const poor = await order(api, { packageId: big.id, recipientNumber: '0241234567' }, 'order-004')
    expect(poor.status).to.equal(402)
    expect(await count('idempotency_keys WHERE key = :k', { k: 'order-004' })).to.equal(0)
  })

  it('50 concurrent API orders against a wallet that covers 30: exactly 30 succeed, the balance ends at 0 and equals the ledger', async function () {
    this.timeout(60_000)
    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { api, agent } = await reseller({}, 30 * 4.5)
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, `burst-${i}`)))
    expect(answers.filter((r) => r.status === 201)).to.have.length(30)
    expect(answers.filter((r) => r.status === 402)).to.have.length(20)
    expect((await api.get('/api/v1/balance')).body.balance).to.equal(0)
    const [row] = await app().db.sequelize.query<{ s: string; low: string }>(
      'SELECT sum(amount_pesewas) AS s, min(balance_after_pesewas) AS low FROM wallet_entries WHERE agent_id = :id',
      { replacements: { id: agent.id }, type: QueryTypes.SELECT }
    )
    expect(Number(row!.s)).to.equal(0)
    expect(Number(row!.low)).to.equal(0)
    expect(await count('orders WHERE agent_id = :id', { id: agent.id })).to.equal(30)
    expect(await count('idempotency_keys')).to.equal(30)
  })

  it("orders are the caller's own: another agent's order is 404; packages carry agent prices", async () => {
    const pkg = await createPackage({ priceAgentPesewas: 450, priceUserPesewas: 500 })
    const one = await reseller({}, 10)
    const two = await reseller({}, 10)
    const mine = await order(one.api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'k1')
    const got = await one.api.get(`/api/v1/orders/${mine.body.order.id}`)
    expect(got.status).to.equal(200)
    expect(got.body.order).to.deep.equal(mine.body.order)
    expect((await two.api.get(`/api/v1/orders/${mine.body.order.id}`)).status).to.equal(404)
    expect((await two.api.get('/api/v1/orders/abc')).status).to.equal(404)
    expect((await two.api.get('/api/v1/orders/99999999999')).status).to.equal(404)
    const pkgs = await one.api.get('/api/v1/packages')
    expect(pkgs.body.packages.find((p: any) => p.id === pkg.id)).to.include({ price: 4.5, network: 'MTN', dataSizeMB: 1024 })
    expect((await one.api.get('/api/v1/nothing-here')).status).to.equal(404)
  })

  it('limits each key per minute with Retry-After', async () => {
    const env = app().services.deps.env
    const before = env.API_RATE_LIMIT_PER_MINUTE
    env.API_RATE_LIMIT_PER_MINUTE = 3
    try {
      const { api } = await reseller()
      const other = await reseller()
      const answers = [] as Res[]
      for (let i = 0; i < 4; i++) answers.push(await api.get('/api/v1/balance'))
      expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200, 429])
      expect(answers[0]!.headers.get('x-ratelimit-remaining')).to.equal('2')
      const retry = Number(answers[3]!.headers.get('retry-after'))
      // The window began with the first of these requests: nearly all its minute is still to wait.
      expect(retry).to.be.within(30, 60)
      expect(answers[3]!.body.error).to.match(/Rate limit of 3 requests per minute exceeded/)
      // Per key: another agent's key is unaffected.
      expect((await other.api.get('/api/v1/balance')).status).to.equal(200)
      await app().db.sequelize.query(`UPDATE rate_limits SET window_start = now() - interval '61 seconds' WHERE key LIKE 'api-key:%'`)
      expect((await api.get('/api/v1/balance')).status).to.equal(200)
    } finally {
      env.API_RATE_LIMIT_PER_MINUTE = before
    }
  })

  it('the OpenAPI 3.1 document validates, and every documented route answers as documented', async () => {
    const served = await new Client().get('/api/v1/openapi.json')
    expect(served.status).to.equal(200)
    expect(served.body).to.deep.equal(JSON.parse(JSON.stringify(openApiDocument)))
    const validator = new Validator()
    const res = await validator.validate(JSON.parse(JSON.stringify(openApiDocument)))
    expect(res.errors ?? null, JSON.stringify(res.errors)).to.equal(null)
    expect(res.valid).to.equal(true)
    expect(validator.version).to.equal('3.1')
    const spec = validator.resolveRefs() as any

    const ajv = new Ajv2020({ strict: false, allErrors: true })
    ;(addFormats as unknown as (a: Ajv2020) => void)(ajv)
    const checked = new Set<string>()
    function expectDocumented(path: string, method: string, r: Res) {
      const op = spec.paths[path][method]
      const doc = op.responses[String(r.status)]
      expect(doc, `${method.toUpperCase()} ${path} answered ${r.status}, which is not documented`).to.not.equal(undefined)
      const schema = doc.content?.['application/json']?.schema
      if (schema) {
        const validate = ajv.compile(schema)
        expect(validate(r.body), `${method} ${path} ${r.status}: ${JSON.stringify(validate.errors)}`).to.equal(true)
      }
      for (const h of Object.keys(doc.headers ?? {})) {
        if (h !== 'Idempotent-Replayed') expect(r.headers.get(h), `${method} ${path} ${r.status} header ${h}`).to.not.equal(null)
      }
      checked.add(`${method} ${path} ${r.status}`)
    }

    const pkg = await createPackage({ priceAgentPesewas: 450 })
    const { api, agent } = await reseller({}, 5)
    const other = await reseller({}, 5)
    expectDocumented('/packages', 'get', await api.get('/api/v1/packages'))
    expectDocumented('/balance', 'get', await api.get('/api/v1/balance'))
    expectDocumented('/balance', 'get', await new Client().get('/api/v1/balance'))
    const created = await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'doc-1')
    expectDocumented('/orders', 'post', created)
    expectDocumented('/orders', 'post', await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'doc-1'))
    expectDocumented('/orders', 'post', await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }))
    expectDocumented('/orders', 'post', await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'doc-2'))
    expectDocumented('/orders', 'post', await order(api, { packageId: pkg.id, recipientNumber: '0200000000' }, 'doc-1'))
    expectDocumented('/orders/{id}', 'get', await api.get(`/api/v1/orders/${created.body.order.id}`))
    expectDocumented('/orders/{id}', 'get', await other.api.get(`/api/v1/orders/${created.body.order.id}`))
    const admin = await adminClient()
    await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 4.5, direction: 'CREDIT', reason: 'One batch line' })
    const batch = { lines: [{ recipientNumber: '0241234599', packageId: pkg.id }] }
    const batched = await api.post('/api/v1/batches', batch, { 'Idempotency-Key': 'doc-b1' })
    expectDocumented('/batches', 'post', batched)
    expectDocumented('/batches', 'post', await api.post('/api/v1/batches', batch))
    expectDocumented(
      '/batches',
      'post',
      await api.post('/api/v1/batches', { lines: [{ recipientNumber: '12', bundle: '1GB' }] }, { 'Idempotency-Key': 'doc-b2' })
    )
    expectDocumented('/batches', 'post', await api.post('/api/v1/batches', batch, { 'Idempotency-Key': 'doc-b3' }))
    expectDocumented('/batches/{id}', 'get', await api.get(`/api/v1/batches/${batched.body.batch.id}`))
    expectDocumented('/batches/{id}', 'get', await other.api.get(`/api/v1/batches/${batched.body.batch.id}`))
    // Result-checker cards: the answer holds the cards, once per Idempotency-Key.
    const productId = await checkerWithStock(await adminClient(), 1, { priceAgent: 2 })
    const checker = (body: unknown, key?: string) => other.api.post('/api/v1/vouchers/orders', body, key ? { 'Idempotency-Key': key } : {})
    expectDocumented('/vouchers/products', 'get', await other.api.get('/api/v1/vouchers/products'))
    const card = await checker({ productId }, 'card-1')
    expectDocumented('/vouchers/orders', 'post', card)
    expect(card.body.purchase.cards).to.deep.equal([{ serial: 'S0001', pin: '9000000001', expiresOn: null }])
    const replayed = await checker({ productId }, 'card-1')
    expectDocumented('/vouchers/orders', 'post', replayed)
    expect(replayed.headers.get('Idempotent-Replayed')).to.equal('true')
    expect(replayed.body.purchase.transactionId).to.equal(card.body.purchase.transactionId)
    expectDocumented('/vouchers/orders', 'post', await checker({ productId, quantity: 2 }, 'card-1'))
    expectDocumented('/vouchers/orders', 'post', await checker({ productId }, 'card-2'))
    expectDocumented('/vouchers/orders', 'post', await checker({ productId }))
    expectDocumented('/vouchers/orders', 'post', await checker({ productId: 999 }, 'card-3'))
    expect(await app().db.sequelize.query(`SELECT count(*)::int AS n FROM payments WHERE purpose = 'voucher'`, { type: QueryTypes.SELECT })).to.deep.equal([
      { n: 1 }
    ])
    await app().db.models.Agent.update({ approved: false }, { where: { id: agent.id } })
    expectDocumented('/packages', 'get', await api.get('/api/v1/packages'))
    const env = app().services.deps.env
    const before = env.API_RATE_LIMIT_PER_MINUTE
    env.API_RATE_LIMIT_PER_MINUTE = 1
    try {
      await other.api.get('/api/v1/balance')
      expectDocumented('/balance', 'get', await other.api.get('/api/v1/balance'))
    } finally {
      env.API_RATE_LIMIT_PER_MINUTE = before
    }
    // Every documented path and method was called.
    const documented = Object.entries(spec.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m} ${p}`))
    for (const op of documented)
      expect(
        [...checked].some((c) => c.startsWith(`${op} `)),
        `${op} was never called`
      ).to.equal(true)
    expect([...checked]).to.include.members([
      'post /vouchers/orders 201',
      'post /vouchers/orders 409',
      'post /vouchers/orders 422',
      'post /vouchers/orders 404',
      'post /orders 201',
      'post /orders 400',
      'post /orders 402',
      'post /orders 422',
      'get /orders/{id} 404',
      'get /balance 401',
      'get /packages 403',
      'get /balance 429',
      'post /batches 201',
      'post /batches 400',
      'post /batches 402',
      'post /batches 422',
      'get /batches/{id} 404'
    ])
  })
})
