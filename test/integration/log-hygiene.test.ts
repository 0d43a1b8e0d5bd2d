import { expect } from 'chai'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { connect } from '../../models/db.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { freePort } from '../../models/embedded.ts'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

const RECIPIENT = '0209998877'
const WARN = 40
const ERROR = 50

/** The log lines an instance wrote at the production level, as objects. */
const linesOf = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, any>)

async function until<T>(find: () => T | undefined): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const found = find()
    if (found) return found
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('not logged in time')
}

describe('log hygiene: what failing agent webhooks and unknown shops write to the log', function () {
  this.timeout(60_000)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'datahub-log-hygiene-'))
  const logFile = path.join(dir, 'server.log')
  let inst: Running
  let busy: http.Server

  before(async () => {
    const { sequelize, models } = connect(app().db.url)
    inst = await boot({
      env: { ...testEnv(), PORT: 0 },
      log: createLogger('info', logFile),
      db: { sequelize, models, url: app().db.url, close: () => sequelize.close() }
    })
    busy = http.createServer((_req, res) => res.writeHead(500).end('down'))
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve))
  })
  after(async () => {
    await inst?.stop()
    await new Promise<void>((resolve) => busy.close(() => resolve()))
    fs.rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(resetDb)

  it('a failing agent webhook logs its host, the error code or status and the attempt: no signature, no order, no error line', async () => {
    const a = await createAgent()
    const portal = new Client(inst.url)
    await portal.login(a.user.email, a.password)
    const closed = await freePort() // nothing listens there: the connection is refused
    const set = await portal.put('/api/reseller/webhook', { url: `http://127.0.0.1:${closed}/hooks` })
    expect(set.status, set.text).to.equal(200)
    const order = await createOrder({ agentId: a.agent.id, userId: a.user.id, paymentStatus: 'SUCCESS', recipientNumber: RECIPIENT })

    // Each failed attempt leaves one warning (or worse) behind: wait for it, then read what it says.
    const noticed = () => linesOf(logFile).filter((l) => l.level >= WARN)
    await inst.services.agentWebhooks.onOrderStatusChange(order.id)
    await inst.services.queue.drain()
    await until(() => noticed().length >= 1 || undefined)

    // The next attempt meets an endpoint that answers 500.
    const busyUrl = `http://127.0.0.1:${(busy.address() as AddressInfo).port}/hooks`
    expect((await portal.put('/api/reseller/webhook', { url: busyUrl })).status).to.equal(200)
    await app().db.sequelize.query('UPDATE graphile_worker._private_jobs SET run_at = now()')
    await inst.services.queue.drain()
    await until(() => noticed().length >= 2 || undefined)

    const text = fs.readFileSync(logFile, 'utf8')
    const secret = set.body.secret as string
    expect(secret, 'the first save shows the new secret').to.match(/^whsec_/)
    for (const leak of [RECIPIENT, '233209998877', 'X-DataHub-Signature', 'v1=', secret, '"config"', '"payload"']) {
      expect(text, `the log holds ${leak}`).to.not.include(leak)
    }
    const lines = linesOf(logFile)
    expect(
      lines.filter((l) => l.level >= ERROR),
      'error lines'
    ).to.deep.equal([])
    const failures = lines.filter((l) => l.msg?.startsWith('agent webhook failed'))
    expect(failures).to.have.length(2)
    expect(failures[0]).to.deep.include({ host: `127.0.0.1:${closed}`, error: 'ECONNREFUSED', attempt: 1 })
    expect(failures[1]).to.deep.include({ host: new URL(busyUrl).host, status: 500, attempt: 2 })
    for (const l of failures)
      expect(Object.keys(l).sort()).to.deep.equal(['attempt', 'host', 'level', 'msg', 'time', 'status' in l ? 'status' : 'error'].sort())
  })

  it('GET /shop/<unknown> answers 404 and logs it at info without a stack; no error line', async () => {
    const before = linesOf(logFile).length
    for (let i = 0; i < 3; i++) {
      const res = await new Client(inst.url).get('/shop/no-such-shop-' + i, { Accept: 'text/html' })
      expect(res.status).to.equal(404)
    }
    const rendered = (l: Record<string, any>) => l.msg === 'page not found' || l.msg === 'page render failed'
    const lines = await until(() => {
      const l = linesOf(logFile).slice(before)
      return l.filter(rendered).length >= 3 ? l : undefined
    })
    expect(
      lines.filter((l) => l.level >= ERROR),
      'error lines'
    ).to.deep.equal([])
    expect(lines.filter((l) => l.msg === 'page render failed')).to.deep.equal([])
    for (const l of lines.filter((x) => x.msg === 'page not found')) {
      expect(l).to.include({ level: 30, status: 404 })
      expect(JSON.stringify(l)).to.not.include('stack')
    }
  })
})
