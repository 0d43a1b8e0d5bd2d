import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryTypes } from 'sequelize'
import { verifyWebhook } from '../../server/services/reseller-api/webhooks.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

// A wallet order's own statement reads whether its agent has a webhook URL (ADR 0075): its order.settled and
// delivery.changed events say so, and the agents' webhooks read nothing more for an agent without one. An agent with
// a URL still gets each signed order.updated, and a URL saved between two orders is heard by the next one.

const hookedRead = /^SELECT o\.\*, a\.webhook_url FROM orders_view\b/

const webhookJobs = async () =>
  app().db.sequelize.query<{ payload: { agentId: number; payload: { type: string; data: { order: { id: number; paymentStatus: string } } } } }>(
    `SELECT j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE t.identifier = 'agent-webhook' ORDER BY j.id`,
    { type: QueryTypes.SELECT }
  )

describe("a wallet order: its agent's webhook URL read by the order's statement (ADR 0075)", function () {
  this.timeout(30_000)
  let server: http.Server
  let url: string
  let received: { headers: http.IncomingHttpHeaders; body: string }[]
  before(async () => {
    server = http.createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push({ headers: req.headers, body })
        res.writeHead(200).end('ok')
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  })
  after(() => new Promise<void>((resolve) => server.close(() => resolve())))
  beforeEach(async () => {
    await resetDb()
    received = []
  })

  it('an agent without a webhook URL: no read of the order for it, no webhook job', async () => {
    const { pkg, api } = await resellerWithKey(20, 'Unhooked')
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'one' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order).to.include({ paymentStatus: 'SUCCESS', deliveryStatus: 'QUEUED' })
    expect(
      sent.filter((s) => hookedRead.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(await webhookJobs()).to.deep.equal([])
  })

  it('an agent with a webhook URL: the order is read for it, and it gets its signed order.updated, paid and queued', async () => {
    const { pkg, api, portal } = await resellerWithKey(20, 'Hooked')
    const set = await portal.put('/api/reseller/webhook', { url })
    expect(set.status, set.text).to.equal(200)
    const secret = set.body.secret as string
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'one' })
    )
    expect(out.status, out.text).to.equal(201)
    // Read for each event of the transaction (paid, queued), as the payload is the order as each change left it.
    expect(
      sent.filter((s) => hookedRead.test(s)),
      sent.join('\n')
    ).to.have.length(2)
    const jobs = await webhookJobs()
    expect(jobs.map((j) => [j.payload.payload.type, j.payload.payload.data.order.id, j.payload.payload.data.order.paymentStatus])).to.deep.equal([
      ['order.updated', out.body.order.id, 'SUCCESS'],
      ['order.updated', out.body.order.id, 'SUCCESS']
    ])
    await app().services.queue.drain()
    // The two above, and the delivery's own changes once the queue has run its vendor call.
    expect(received.length).to.be.at.least(2)
    for (const r of received) {
      expect(verifyWebhook(secret, r.body, String(r.headers['x-datahub-signature']))).to.equal(true)
      expect(JSON.parse(r.body).data.order).to.include({ id: out.body.order.id, paymentStatus: 'SUCCESS' })
    }
  })

  it('a URL saved after an order is heard by the next order, and cleared again it is not', async () => {
    const { pkg, api, portal } = await resellerWithKey(20, 'Later')
    const place = (n: string) => api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: `02411122${n}` }, { 'Idempotency-Key': `k-${n}` })
    expect((await place('10')).status).to.equal(201)
    expect(await webhookJobs()).to.have.length(0)
    expect((await portal.put('/api/reseller/webhook', { url })).status).to.equal(200)
    const second = await place('11')
    expect(second.status).to.equal(201)
    expect((await webhookJobs()).map((j) => j.payload.payload.data.order.id)).to.deep.equal([second.body.order.id, second.body.order.id])
    expect((await portal.put('/api/reseller/webhook', { url: null })).status).to.equal(200)
    expect((await place('12')).status).to.equal(201)
    expect(await webhookJobs()).to.have.length(2)
  })
})
