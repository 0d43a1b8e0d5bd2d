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
    return createAgentWebhooks({
      sequelize: app().db.sequelize,
      env: { ...testEnv(), WEBHOOKS_ALLOW_PRIVATE: allowPrivate },
      log: s.deps.log,
      queue: s.queue,
      audit: s.audit
    })
  }
  const actorOf = async (userId: number) => ({ user: await app().services.auth.loadActor(userId) })

  it('knows public from private, loopback, link-local and mapped addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1'
    ])
      expect(isPublicAddress(ip), ip).to.equal(false)
    for (const ip of ['41.66.1.10', '8.8.8.8', '2c0f:fe38::1']) expect(isPublicAddress(ip), ip).to.equal(true)
  })

  // Each IPv6 form that carries an IPv4 address, with a private one inside: packets to it reach that IPv4 address.
  const EMBEDDED_PRIVATE = {
    'IPv4-compatible ::/96': '::127.0.0.1',
    'IPv4-mapped ::ffff:0:0/96': '::ffff:169.254.169.254',
    'IPv4-translated ::ffff:0:0:0/96': '::ffff:0:10.0.0.1',
    'NAT64 64:ff9b::/96': '64:ff9b::192.168.1.1',
    'local-use NAT64 64:ff9b:1::/48': '64:ff9b:1::808:808',
    '6to4 2002::/16': '2002:7f00:1::1',
    'Teredo 2001::/32, private server': '2001:0:a00:1:8000:63bf:f7f7:f7f7',
    'Teredo 2001::/32, loopback client': '2001:0:4136:e378:8000:63bf:80ff:fffe'
  }
  const EMBEDDED_PUBLIC = ['::8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:f7f7:f7f7']

  it('judges an IPv6 address that embeds an IPv4 one by the embedded address', () => {
    for (const [form, ip] of Object.entries(EMBEDDED_PRIVATE)) expect(isPublicAddress(ip), form).to.equal(false)
    for (const ip of EMBEDDED_PUBLIC) expect(isPublicAddress(ip), ip).to.equal(true)
  })

  it('refuses each IPv6 form embedding a private IPv4 address when saved and when sent; a public embedded one is kept', async () => {
    const a = await createAgent()
    const ctx = await actorOf(a.user.id)
    const hooks = webhooksWith(false)
    const payload = { id: 'evt_1', type: 'order.updated' as const, createdAt: new Date().toISOString(), data: { order: {} as any } }
    for (const [form, ip] of Object.entries(EMBEDDED_PRIVATE)) {
      const url = `https://[${ip}]/hook`
      let status = 0
      await hooks.update({ url }, ctx).catch((e) => (status = e.status))
      expect(status, `save ${form}`).to.equal(400)
      // Saved before the rule existed (or written around it): the send refuses it before connecting.
      await app().db.sequelize.query(`UPDATE agents SET webhook_url = :url, webhook_secret = 'whsec_test' WHERE id = :id`, {
        replacements: { url, id: a.agent.id }
      })
      let code = ''
      await hooks.deliver({ agentId: a.agent.id, payload }).catch((e) => (code = e.code))
      expect(code, `send ${form}`).to.equal('EPRIVATEADDRESS')
    }
    for (const ip of EMBEDDED_PUBLIC) expect((await hooks.update({ url: `https://[${ip}]/hook` }, ctx)).url, ip).to.match(/^https:\/\/\[/)
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
    await app().db.sequelize.query(`UPDATE agents SET webhook_url = :url, webhook_secret = 'whsec_test' WHERE id = :id`, {
      replacements: { url: `http://localhost:${port}/hook`, id: a.agent.id }
    })
    const payload = { id: 'evt_1', type: 'order.updated' as const, createdAt: new Date().toISOString(), data: { order: {} as any } }
    let code = ''
    await webhooksWith(false)
      .deliver({ agentId: a.agent.id, payload })
      .catch((e) => (code = e.code))
    expect(code).to.equal('EPRIVATEADDRESS')
    expect(hits).to.equal(0)
    expect(await webhooksWith(true).deliver({ agentId: a.agent.id, payload })).to.equal('sent')
    expect(hits).to.equal(1)
  })
})
