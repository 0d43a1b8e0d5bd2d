import { Validator } from '@seriousme/openapi-schema-validator'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { expect } from 'chai'
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryTypes } from 'sequelize'
import { signWebhook, verifyWebhook, type WebhookPayload } from '../../server/services/reseller-api/webhooks.ts'
import { openApiDocument } from '../../server/services/reseller-api/openapi.ts'
import { createAgent, createOrder, createPackage } from '../helpers/factories.ts'
import { adminClient, Client, type Res } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// The reseller API (/api/v1), its keys, idempotency, rate limit, webhooks and OpenAPI document.
const count = async (from: string, r: Record<string, unknown> = {}) =>
  Number((await app().db.sequelize.query<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, { replacements: r, type: QueryTypes.SELECT }))[0]!.n)

async function reseller(over: Record<string, unknown> = {}, credit = 0) {
  const a = await createAgent(over)
  const portal = new Client()
  await portal.login(a.user.email, a.password)
  const created = await portal.post('/api/reseller/keys', { name: 'My shop' })
  expect(created.status, created.text).to.equal(201)
  if (credit) {
    const admin = await adminClient()
    expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: credit, direction: 'CREDIT', reason: 'Test float' })).status).to.equal(200)
  }
  const api = new Client()
  api.bearer = created.body.key
  return { ...a, portal, api, key: created.body.key as string, keyId: created.body.id as number }
}

const order = (api: Client, body: unknown, key?: string) => api.post('/api/v1/orders', body, key ? { 'Idempotency-Key': key } : {})

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

  describe('webhooks', () => {
    let server: http.Server
    let url: string
    let received: { headers: http.IncomingHttpHeaders; body: string }[]
    let failNext: number
    // The statuses the next requests get (then 503 while failNext lasts, then 200); a 302 points back here.
    let answers: number[]
    before(async () => {
      server = http.createServer((req, res) => {
        let body = ''
        req.on('data', (c) => (body += c))
        req.on('end', () => {
          received.push({ headers: req.headers, body })
          const status = answers.shift()
          if (status) res.writeHead(status, status === 302 ? { Location: url } : {}).end('answer')
          else if (failNext > 0) {
            failNext--
            res.writeHead(503).end('busy')
          } else res.writeHead(200).end('ok')
        })
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/datahub`
    })
    after(() => new Promise<void>((resolve) => server.close(() => resolve())))
    beforeEach(async () => {
      // Manual delivery: one status change (the payment) per order, so each webhook here is counted alone.
      // Delivery's own changes reaching the webhook are tested in delivery-money.test.ts.
      await app().services.settings.update({ deliveryMode: 'manual' }, {})
      received = []
      failNext = 0
      answers = []
    })

    it('a settled order sends a signed webhook that verifies; a refusal is retried by the queue', async () => {
      const pkg = await createPackage({ priceAgentPesewas: 450 })
      const { api, portal } = await reseller({}, 10)
      // The portal's key name and webhook URL are checked at the edge, in the words they always had.
      const refused = await Promise.all([
        portal.put('/api/reseller/webhook', { url: 'ftp://example.com/x' }),
        portal.post('/api/reseller/keys', {}),
        portal.post('/api/reseller/keys', { name: 'x'.repeat(61) })
      ])
      expect(refused.map((r) => [r.status, r.body.error])).to.deep.equal([
        [400, 'Webhook URL must be an http(s):// address'],
        [400, 'Give the key a name (1 to 60 characters)'],
        [400, 'Give the key a name (1 to 60 characters)']
      ])
      const set = await portal.put('/api/reseller/webhook', { url })
      expect(set.status).to.equal(200)
      const secret = set.body.secret as string
      expect(secret).to.match(/^whsec_/)
      failNext = 1
      const placed = await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'hook-1')
      await app().services.queue.drain()
      expect(received).to.have.length(1)
      // Refused (503): the job is kept with a backoff; make it due now and run again.
      // Put off by the queue's backoff: due after the failed attempt (not "after now": a slow machine may already be there).
      const [job] = await app().db.sequelize.query<any>(
        `SELECT attempts, run_at > updated_at AS later, last_error FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'agent-webhook') AND locked_at IS NULL AND last_error IS NOT NULL`,
        { type: QueryTypes.SELECT }
      )
      expect(job).to.include({ attempts: 1, later: true })
      await app().db.sequelize.query(`UPDATE graphile_worker._private_jobs SET run_at = now()`)
      await app().services.queue.drain()
      expect(received).to.have.length(2)
      const last = received[1]!
      expect(last.headers['content-type']).to.equal('application/json')
      expect(last.headers['x-datahub-event']).to.equal('order.updated')
      expect(last.headers['x-datahub-delivery']).to.equal(received[0]!.headers['x-datahub-delivery'])
      expect(verifyWebhook(secret, last.body, String(last.headers['x-datahub-signature']))).to.equal(true)
      expect(verifyWebhook(secret, last.body.replace('SUCCESS', 'FAILED'), String(last.headers['x-datahub-signature']))).to.equal(false)
      expect(verifyWebhook('whsec_other', last.body, String(last.headers['x-datahub-signature']))).to.equal(false)
      const event = JSON.parse(last.body)
      expect(event).to.include({ type: 'order.updated' })
      expect(event.data.order).to.include({ id: placed.body.order.id, paymentStatus: 'SUCCESS' })
      // Delivered: the webhook job is gone.
      expect(
        await count(`graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'agent-webhook')`)
      ).to.equal(0)
    })

    it("agentWebhooks.onOrderStatusChange enqueues for an agent with a URL (inside the caller's transaction) and nothing otherwise", async () => {
      const pkg = await createPackage({ priceAgentPesewas: 450 })
      const { api, portal } = await reseller({}, 10)
      const placed = await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'hook-2')
      expect(await app().services.agentWebhooks.onOrderStatusChange(placed.body.order.id)).to.equal(null)
      const { secret } = (await portal.put('/api/reseller/webhook', { url })).body
      // Rolled back with the caller's transaction: no job.
      await app()
        .db.sequelize.transaction(async (transaction) => {
          expect(await app().services.agentWebhooks.onOrderStatusChange(placed.body.order.id, { transaction })).to.be.a('string')
          await transaction.rollback()
        })
        .catch(() => undefined)
      expect(
        await count(`graphile_worker._private_jobs WHERE task_id IN (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'agent-webhook')`)
      ).to.equal(0)
      await app().db.sequelize.transaction((transaction) => app().services.agentWebhooks.onOrderStatusChange(placed.body.order.id, { transaction }))
      await app().services.queue.drain()
      expect(received).to.have.length(1)
      expect(verifyWebhook(secret, received[0]!.body, String(received[0]!.headers['x-datahub-signature']))).to.equal(true)
    })

    it('the signing secret is shown when made or rotated, never by GET; after a rotation the old secret stops verifying', async () => {
      const pkg = await createPackage({ priceAgentPesewas: 450 })
      const { api, portal } = await reseller({}, 10)
      expect((await portal.get('/api/reseller/webhook')).body).to.deep.equal({ url: null, hasSecret: false })
      const first = await portal.put('/api/reseller/webhook', { url })
      expect(first.body.secret).to.match(/^whsec_/)
      const old = first.body.secret as string
      // Read back or saved again: the URL, never the secret.
      const read = await portal.get('/api/reseller/webhook')
      expect(read.body).to.deep.equal({ url, hasSecret: true })
      expect(read.text).not.to.include(old)
      const again = await portal.put('/api/reseller/webhook', { url })
      expect(again.body).to.deep.equal({ url, hasSecret: true })
      expect(again.text).not.to.include('whsec_')

      const rotated = await portal.post('/api/reseller/webhook/secret')
      expect(rotated.status).to.equal(201)
      expect(rotated.headers.get('cache-control')).to.equal('no-store')
      const fresh = rotated.body.secret as string
      expect(fresh)
        .to.match(/^whsec_/)
        .and.not.equal(old)
      expect((await portal.get('/api/reseller/webhook')).text).not.to.include(fresh)
      expect(await count(`audit_logs WHERE action = 'WEBHOOK_SECRET_ROTATED'`)).to.equal(1)
      expect(await count(`audit_logs WHERE details::text LIKE '%whsec_%'`)).to.equal(0)

      await order(api, { packageId: pkg.id, recipientNumber: '0241234567' }, 'hook-3')
      await app().services.queue.drain()
      expect(received).to.have.length(1)
      const signature = String(received[0]!.headers['x-datahub-signature'])
      expect(verifyWebhook(fresh, received[0]!.body, signature)).to.equal(true)
      expect(verifyWebhook(old, received[0]!.body, signature)).to.equal(false)
    })
    it('a webhook URL the delivery could not parse (a port beyond 65535, an IPv4 part beyond 255) is a 400 at the edge, not stored', async () => {
      const { portal } = await reseller()
      for (const bad of ['https://example.com:99999/hook', 'http://300.1.1.1/hook']) {
        const res = await portal.put('/api/reseller/webhook', { url: bad })
        expect([res.status, res.body.error], bad).to.deep.equal([400, 'Webhook URL must be an http(s):// address'])
      }
      expect((await portal.get('/api/reseller/webhook')).body).to.deep.equal({ url: null, hasSecret: false })
    })

    it('verifyWebhook takes a signature up to 5 minutes old or ahead, and refuses an older or newer one, one without a whole time or a v1, and a v1 of another length', () => {
      const secret = 'whsec_test'
      const body = '{"id":"evt_1"}'
      const now = 1_800_000_000
      const mac = (t: string) => crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')
      const verify = (header: string) => verifyWebhook(secret, body, header, 300, now)
      expect([-300, 300, -301, 301].map((d) => verify(signWebhook(secret, body, now + d)))).to.deep.equal([true, true, false, false])
      // Each signed over the text its time turns into, so only the time's own check refuses it.
      expect(verify(`v1=${mac('NaN')}`)).to.equal(false)
      expect(verify(`t=${now}.5,v1=${mac(`${now}.5`)}`)).to.equal(false)
      expect(verify(`t=${now}`)).to.equal(false)
      expect(verify(`t=${now},v1=${mac(String(now)).slice(1)}`)).to.equal(false)
    })

    it('a delivery is sent only on a 2xx: a 300 or a redirect (not followed) fails with the host and status, a refused connection with its code; no URL or secret skips', async () => {
      const { agent, portal } = await reseller()
      const { secret } = (await portal.put('/api/reseller/webhook', { url })).body
      const hooks = app().services.agentWebhooks
      const payload: WebhookPayload = { id: 'evt_1', type: 'order.updated', createdAt: new Date().toISOString(), data: { order: {} as any } }
      const host = new URL(url).host
      const failure = (p: Promise<unknown>) =>
        p.then(
          () => ({}),
          (e: { message: string; code?: string }) => ({ message: e.message, code: e.code })
        )

      answers = [204, 300, 302]
      expect(await hooks.deliver({ agentId: agent.id, payload }, 3)).to.equal('sent')
      expect(received[0]!.headers).to.include({ 'user-agent': 'DataHub-Webhooks/1', 'x-datahub-attempt': '3', 'x-datahub-delivery': 'evt_1' })
      expect(verifyWebhook(secret, received[0]!.body, String(received[0]!.headers['x-datahub-signature']))).to.equal(true)
      expect(await failure(hooks.deliver({ agentId: agent.id, payload }))).to.deep.equal({ message: `agent webhook to ${host}: answered 300`, code: undefined })
      expect(await failure(hooks.deliver({ agentId: agent.id, payload }))).to.deep.equal({ message: `agent webhook to ${host}: answered 302`, code: undefined })
      expect(received).to.have.length(3)

      const closed = http.createServer()
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
      const gone = `127.0.0.1:${(closed.address() as AddressInfo).port}`
      await new Promise<void>((resolve) => closed.close(() => resolve()))
      await portal.put('/api/reseller/webhook', { url: `http://${gone}/hook` })
      expect(await failure(hooks.deliver({ agentId: agent.id, payload }))).to.deep.equal({
        message: `agent webhook to ${gone}: ECONNREFUSED`,
        code: 'ECONNREFUSED'
      })

      // Cleared: the secret stays for the next URL, and nothing is sent.
      const cleared = await portal.put('/api/reseller/webhook', { url: '' })
      expect(cleared.body).to.deep.equal({ url: null, hasSecret: true })
      expect(await hooks.deliver({ agentId: agent.id, payload })).to.equal('skipped')
      await app().db.sequelize.query('UPDATE agents SET webhook_url = :url, webhook_secret = NULL WHERE id = :id', { replacements: { url, id: agent.id } })
      expect(await hooks.deliver({ agentId: agent.id, payload })).to.equal('skipped')
      expect(await hooks.deliver({ agentId: 2_000_000_000, payload })).to.equal('skipped')
      expect(received).to.have.length(3)
    })

    it("the webhook's changes are audited with the agent and the URL; a rotation answers the URL", async () => {
      const { user, portal } = await reseller()
      await portal.put('/api/reseller/webhook', { url })
      await portal.put('/api/reseller/webhook', { url })
      const rotated = await portal.post('/api/reseller/webhook/secret')
      expect(rotated.body).to.include({ url, hasSecret: true })
      await portal.put('/api/reseller/webhook', { url: null })
      const entries = await app().db.sequelize.query<{ action: string; user_id: number; url: string | null }>(
        `SELECT action, user_id, details->>'url' AS url FROM audit_logs WHERE action LIKE 'WEBHOOK%' ORDER BY id`,
        { type: QueryTypes.SELECT }
      )
      expect(entries).to.deep.equal([
        { action: 'WEBHOOK_UPDATED', user_id: user.id, url },
        { action: 'WEBHOOK_UPDATED', user_id: user.id, url },
        { action: 'WEBHOOK_SECRET_ROTATED', user_id: user.id, url },
        { action: 'WEBHOOK_UPDATED', user_id: user.id, url: null }
      ])
    })

    it('onOrdersStatusChange enqueues each event per order of an agent with a URL, onBatchCompleted one batch.completed; an order without one, or without an agent, enqueues nothing', async () => {
      const hooked = await reseller()
      const plain = await reseller()
      const { secret } = (await hooked.portal.put('/api/reseller/webhook', { url })).body
      const [mine, theirs, nobodys] = await Promise.all([createOrder({ agentId: hooked.agent.id }), createOrder({ agentId: plain.agent.id }), createOrder()])
      const hooks = app().services.agentWebhooks
      expect(await hooks.onOrderStatusChange(nobodys.id)).to.equal(null)
      expect(await hooks.onOrdersStatusChange([], 2)).to.equal(0)
      expect(await hooks.onOrdersStatusChange([mine.id, theirs.id, nobodys.id], 2)).to.equal(2)
      expect(await hooks.onBatchCompleted(plain.agent.id, { id: 'batch-0' })).to.equal(null)
      expect(await hooks.onBatchCompleted(hooked.agent.id, { id: 'batch-1' })).to.be.a('string')
      const jobs = await app().db.sequelize.query<{ max_attempts: number }>(
        `SELECT max_attempts FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'agent-webhook')`,
        { type: QueryTypes.SELECT }
      )
      expect(jobs.map((j) => j.max_attempts)).to.deep.equal([12, 12, 12])
      await app().services.queue.drain()
      for (const r of received) expect(verifyWebhook(secret, r.body, String(r.headers['x-datahub-signature']))).to.equal(true)
      const events = received.map((r) => JSON.parse(r.body))
      expect(events.map((e) => [e.type, e.data.order?.id ?? e.data.batch.id]).sort()).to.deep.equal([
        ['batch.completed', 'batch-1'],
        ['order.updated', mine.id],
        ['order.updated', mine.id]
      ])
      expect(new Set(events.map((e) => e.id)).size).to.equal(3)
    })
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
