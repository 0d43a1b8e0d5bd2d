import { expect } from 'chai'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { boot } from '../../main.ts'
import { connect } from '../../models/db.ts'
import type { Running } from '../../server/index.ts'
import { createLogger } from '../../server/lib/logger.ts'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

// A request's logger (its id bound in) is made when something logs, not for every request that hands it to a service.
describe("a request's logger, made on first use", () => {
  const file = path.join(os.tmpdir(), `datahub-request-logger-${process.pid}.log`)
  const bindings: unknown[] = []
  let instance: Running | undefined

  before(async () => {
    fs.rmSync(file, { force: true })
    const log = createLogger('info', file)
    // pino's own child, counted: every child the app makes goes through the base logger's `child`.
    const child = log.child.bind(log)
    log.child = ((b: Record<string, unknown>, o?: object) => {
      bindings.push(b)
      return child(b, o)
    }) as typeof log.child
    // Its own pool on the test database, as bootInstance makes: stopping an instance closes its pool.
    const url = app().db.url
    const { sequelize, models } = connect(url)
    instance = await boot({ env: { ...testEnv(), PORT: 0 }, log, db: { sequelize, models, url, close: async () => sequelize.close() } })
  })
  after(async () => {
    await instance?.stop()
  })
  beforeEach(async () => {
    await resetDb()
    bindings.length = 0
  })

  const perRequest = () => bindings.filter((b) => typeof b === 'object' && b !== null && 'reqId' in b)

  it("a visitor's order and a wallet order over the API make no request logger", async () => {
    const pkg = await createPackage()
    const { pkg: agentPkg, api } = await resellerWithKey()
    bindings.length = 0
    const visitor = await new Client(instance!.url).post('/api/orders', {
      packageId: pkg.id,
      recipientNumber: '0241234567',
      payerPhone: '0241234567',
      payerNetwork: 'MTN'
    })
    expect(visitor.status, visitor.text).to.equal(201)
    const reseller = new Client(instance!.url)
    reseller.bearer = api.bearer
    const wallet = await reseller.post('/api/v1/orders', { packageId: agentPkg.id, recipientNumber: '0241234567' }, { 'Idempotency-Key': 'lazy-log-1' })
    expect(wallet.status, wallet.text).to.equal(201)
    expect(perRequest()).to.deep.equal([])
  })

  it('a request that logs still logs with its request id, once', async () => {
    const res = await new Client(instance!.url).post('/api/whatsapp/webhook', { entry: [] }, { 'x-request-id': 'lazy-log-req' })
    expect(res.status).to.be.within(400, 499)
    expect(perRequest()).to.deep.equal([{ reqId: 'lazy-log-req' }])
    const lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { reqId?: string; msg: string })
      .filter((l) => l.reqId === 'lazy-log-req')
    expect(lines.map((l) => l.msg)).to.deep.equal(['WhatsApp webhook refused: bad or missing X-Hub-Signature-256'])
  })
})
