import { expect } from 'chai'
import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryTypes } from 'sequelize'
import { signWebhook, verifyWebhook, type WebhookPayload } from '../../server/services/reseller-api/webhooks.ts'
import { createOrder, createPackage } from '../helpers/factories.ts'
import { app, resetDb } from '../helpers/server.ts'
import { count, reseller, order } from '../helpers/reseller-api.ts'

// The reseller API (/api/v1), its keys, idempotency, rate limit, webhooks and OpenAPI document.

describe('reseller API /api/v1', () => {
  beforeEach(resetDb)

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
})
