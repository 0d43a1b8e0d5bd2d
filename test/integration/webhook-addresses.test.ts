import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { isPublicAddress } from '../../server/lib/public-address.ts'
import { createAgentWebhooks } from '../../server/services/reseller-api/webhooks.ts'
import { createAgent } from '../helpers/factories.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

// An agent's webhook URL must not make the shop's servers call into their own network (production default).
describe('agent webhooks reach public addresses only', () => {
  let receiver: http.Server
  let hits = 0
  before(async () => {
    receiver = http.createServer((_req, res) => {
      hits++
      res.end('ok')
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
  })
  after(() => new Promise<void>((r) => receiver.close(() => r())))
  beforeEach(async () => {
    hits = 0
    await resetDb()
  })

  const webhooksWith = (allowPrivate: boolean) => {
    const s = app().services
    return createAgentWebhooks({ sequelize: app().db.sequelize, env: { ...testEnv(), WEBHOOKS_ALLOW_PRIVATE: allowPrivate }, log: s.deps.log, queue: s.queue, audit: s.audit })
  }
  const actorOf = async (userId: number) => ({ user: await app().services.auth.loadActor(userId) })

  it('knows public from private, loopback, link-local and mapped addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1'])
      expect(isPublicAddress(ip), ip).to.equal(false)
    for (const ip of ['41.66.1.10', '8.8.8.8', '2c0f:fe38::1']) expect(isPublicAddress(ip), ip).to.equal(true)
  })

  it('refuses to save a private or local literal address, keeps a public name', async () => {
    const a = await createAgent()
    const ctx = await actorOf(a.user.id)
    const hooks = webhooksWith(false)
    for (const url of ['http://127.0.0.1:9/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::ffff:10.0.0.1]/x', 'http://[::1]/x']) {
      let status = 0
      await hooks.update({ url }, ctx).catch((e) => (status = e.status))
      expect(status, url).to.equal(400)
    }
    const saved = await hooks.update({ url: 'https://hooks.example.com/datahub' }, ctx)
    expect(saved.url).to.equal('https://hooks.example.com/datahub')
  })

  it('does not send to a name that resolves to loopback, and sends when private addresses are allowed (development)', async () => {
    const a = await createAgent()
    const { port } = receiver.address() as AddressInfo
    await app().db.sequelize.query(`UPDATE agents SET webhook_url = :url, webhook_secret = 'whsec_test' WHERE id = :id`, { replacements: { url: `http://localhost:${port}/hook`, id: a.agent.id } })
    const payload = { id: 'evt_1', type: 'order.updated' as const, createdAt: new Date().toISOString(), data: { order: {} as any } }
    let code = ''
    await webhooksWith(false).deliver({ agentId: a.agent.id, payload }).catch((e) => (code = e.code))
    expect(code).to.equal('EPRIVATEADDRESS')
    expect(hits).to.equal(0)
    expect(await webhooksWith(true).deliver({ agentId: a.agent.id, payload })).to.equal('sent')
    expect(hits).to.equal(1)
  })
})
