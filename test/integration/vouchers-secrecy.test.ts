import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { connect } from '../../models/db.ts'
import { backupTo } from '../../models/backup.ts'
import { boot } from '../../main.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'
import { checkerWithStock } from '../helpers/vouchers.ts'

// A checker PIN is the thing sold: it is sealed at rest and handed only to whoever bought it.
const PIN = '9000000001'
const BUYER = '0245551234'

describe('result-checker PINs stay secret', function () {
  this.timeout(120_000)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'datahub-vouchers-'))
  const logFile = path.join(dir, 'server.log')
  let inst: Running

  before(async () => {
    const { sequelize, models } = connect(app().db.url)
    // A second instance on the same database, logging at debug level to a file we can read.
    inst = await boot({
      env: { ...testEnv(), PORT: 0 },
      log: createLogger('debug', logFile),
      db: { sequelize, models, url: app().db.url, close: () => sequelize.close() }
    })
  })
  after(async () => {
    await inst?.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(resetDb)

  async function boughtByVisitor() {
    const admin = await adminClient(inst.url)
    const productId = await checkerWithStock(admin, 3)
    const buyer = new Client(inst.url)
    const started = await buyer.post('/api/vouchers/orders', { productId, quantity: 1, payerPhone: BUYER, payerNetwork: 'MTN' })
    expect(started.status, JSON.stringify(started.body)).to.equal(201)
    const tid = started.body.transactionId as string
    // Before the money is in, no cards.
    expect((await buyer.get(`/api/vouchers/orders/${tid}`)).body.purchase.cards).to.deep.equal([])
    expect((await new Client(inst.url).post(`/api/simulator/payments/${tid}/approve`)).status).to.equal(200)
    return { admin, buyer, tid, productId }
  }

  it("appears in the buyer's answers only: not in a dump of the database, the server log, audit, admin lists or anyone else's answer", async () => {
    const { admin, buyer, tid } = await boughtByVisitor()
    const mine = await buyer.get(`/api/vouchers/orders/${tid}`)
    expect(mine.body.purchase.cards).to.deep.equal([{ serial: 'S0001', pin: PIN, expiresOn: null }])
    expect(JSON.stringify((await buyer.get('/api/vouchers/mine')).body)).to.include(PIN)
    expect((await buyer.post(`/api/vouchers/orders/${tid}/resend`)).status).to.equal(200)
    await inst.services.queue.drain()

    const others: Array<Promise<{ text: string; status: number }>> = [
      new Client(inst.url).get(`/api/vouchers/orders/${tid}`),
      new Client(inst.url).get('/api/vouchers/mine'),
      new Client(inst.url).get(`/api/payment/status/${tid}`),
      admin.get('/api/vouchers/admin/sold'),
      admin.get('/api/vouchers/admin/products'),
      admin.get('/api/admin/audit-logs?limit=100'),
      admin.get('/api/admin/payments/attention')
    ]
    for (const res of await Promise.all(others)) expect(res.text, res.text.slice(0, 200)).to.not.include(PIN)
    expect((await new Client(inst.url).get(`/api/vouchers/orders/${tid}`)).status).to.equal(404)

    const dump = path.join(dir, 'dump.jsonl.gz')
    const { rows } = await backupTo(app().db.sequelize, dump)
    expect(rows).to.be.greaterThan(10)
    const text = zlib.gunzipSync(fs.readFileSync(dump)).toString('utf8')
    expect(text).to.include('S0001').and.include('sealed:v1:')
    expect(text).to.not.include(PIN)
    expect(fs.readFileSync(logFile, 'utf8')).to.include(tid).and.not.include(PIN)
  })

  it('"My checkers" by phone and transaction id: the right pair shows the cards; another phone or a guessed id the same nothing; rate limited', async () => {
    const { tid } = await boughtByVisitor()
    const stranger = new Client(inst.url)
    const right = await stranger.post('/api/vouchers/lookup', { phone: '233245551234', transactionId: tid })
    expect(right.status).to.equal(200)
    expect(right.body.purchases[0].cards[0].pin).to.equal(PIN)
    const wrongPhone = await stranger.post('/api/vouchers/lookup', { phone: '0245550000', transactionId: tid })
    const guessed = await stranger.post('/api/vouchers/lookup', { phone: BUYER, transactionId: String(BigInt(tid) + 1n) })
    const garbage = await stranger.post('/api/vouchers/lookup', { phone: 'x', transactionId: 'DROP TABLE' })
    for (const miss of [wrongPhone, guessed, garbage]) {
      expect(miss.status).to.equal(200)
      expect(miss.text).to.equal('{"purchases":[]}')
    }
    // Five asks per phone in ten minutes: the buyer's phone has had two.
    for (let i = 0; i < 3; i++) expect((await stranger.post('/api/vouchers/lookup', { phone: BUYER, transactionId: tid })).status).to.equal(200)
    const limited = await stranger.post('/api/vouchers/lookup', { phone: BUYER, transactionId: tid })
    expect(limited.status).to.equal(429)
    expect(limited.text).to.not.include(PIN)
  })
})
