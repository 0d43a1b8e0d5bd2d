import { expect } from 'chai'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { xlsxOf } from '../helpers/xlsx.ts'

// Bulk orders (ADR 0039): an agent's list checked like single orders, paid with one wallet debit,
// each line an ordinary order delivered and, when it fails for good, refunded on its own.
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const count = async (from: string, r: Record<string, unknown> = {}) => Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${from}`, r))[0]!.n)
const drain = () => app().services.queue.drain()
const balance = async (agentId: number) =>
  Number((await sql<{ b: string }>('SELECT balance_pesewas AS b FROM wallets WHERE agent_id = :id', { id: agentId }))[0]?.b ?? 0)

async function agentWith(credit: number) {
  const a = await createAgent()
  const c = new Client()
  await c.login(a.user.email, a.password)
  if (credit) {
    const admin = await adminClient()
    const res = await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: credit, direction: 'CREDIT', reason: 'Float for bulk orders' })
    expect(res.status, res.text).to.equal(200)
  }
  return { ...a, c }
}

/** 0240000000 + i: distinct MTN numbers. */
const mtn = (i: number) => `024${String(i).padStart(7, '0')}`

async function catalogue() {
  await app().db.models.Package.destroy({ where: {} })
  const mtn1 = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
  const mtn2 = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
  const tel1 = await createPackage({ network: 'TELECEL', sizeMb: 1024, priceUserPesewas: 520, priceAgentPesewas: 470 })
  app().services.packages.invalidate()
  return { mtn1, mtn2, tel1 }
}

describe('bulk orders', () => {
  beforeEach(async () => {
    await resetDb()
    app().services.delivery.simulatorControl({ mode: 'deliver' })
  })
  after(() => app().services.delivery.simulatorControl({ mode: 'deliver' }))

  it('1,000 pasted lines with 20 bad ones: the preview names exactly those 20; paying writes one debit, 980 orders in one batch, all delivered', async function () {
    this.timeout(300_000)
    await catalogue()
    const { agent, c } = await agentWith(980 * 4.5)
    const bad = new Map<number, string>()
    const lines: string[] = []
    for (let i = 1; i <= 1000; i++) {
      if (i % 50 === 7) {
        // Four kinds of refusal, five of each.
        const kind = (i / 50) | 0
        const line = [`12345${i}`, `${mtn(i)} 7GB`, `${mtn(i)},XYZ,1GB`, `${mtn(i)},MTN,`][kind % 4]!
        bad.set(i, line)
        lines.push(line)
      } else {
        lines.push(i % 3 === 0 ? `${mtn(i)},MTN,1GB` : `${mtn(i)} 1GB`)
      }
    }
    const preview = await c.post('/api/bulk/preview', { text: lines.join('\n') })
    expect(preview.status, preview.text).to.equal(200)
    const refused = preview.body.lines.filter((l: any) => l.error)
    expect(refused.map((l: any) => l.line)).to.deep.equal([...bad.keys()])
    expect(preview.body).to.include({ count: 1000, refused: 20, duplicates: 0, total: 4410, balance: 4410, enough: true })
    expect(refused.find((l: any) => l.line === 7).error).to.equal('Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567')
    expect(refused.find((l: any) => l.line === 57).error).to.equal('No active 7GB bundle on MTN')
    expect(refused.find((l: any) => l.line === 107).error).to.equal('Network must be MTN, Telecel or AirtelTigo')
    expect(refused.find((l: any) => l.line === 157).error).to.equal('Please select a package')

    // Refused lines still in: nothing is written.
    const early = await c.post('/api/bulk', { text: lines.join('\n') })
    expect(early.status).to.equal(422)
    expect(early.body.lines.map((l: any) => l.line)).to.deep.equal([...bad.keys()])
    expect(await count('orders')).to.equal(0)

    const good = lines.filter((_, i) => !bad.has(i + 1))
    const paid = await c.post('/api/bulk', { text: good.join('\n'), expectedTotal: 4410 })
    expect(paid.status, paid.text).to.equal(201)
    expect(paid.body.batch).to.include({ lines: 980, total: 4410 })
    expect(await balance(agent.id)).to.equal(0)
    expect(await count(`wallet_entries WHERE type = 'ORDER'`)).to.equal(1)
    expect(await count('orders WHERE batch_id = :id', { id: paid.body.batch.id })).to.equal(980)
    expect(await count(`payments WHERE gateway = 'wallet' AND status = 'SUCCESS'`)).to.equal(980)
    expect(await count('sms_outbox')).to.equal(0)

    for (let i = 0; i < 3; i++) await drain()
    expect(await count(`orders WHERE batch_id = :id AND delivery_status = 'DELIVERED'`, { id: paid.body.batch.id })).to.equal(980)
    const status = await c.get(`/api/bulk/${paid.body.batch.id}/status`)
    expect(status.body.batch.counts).to.deep.equal({ queued: 0, delivered: 980, failed: 0, refunded: 0 })
    expect(status.body.batch.completedAt).to.be.a('string')
    const statement = await c.get('/api/wallet/statement?limit=100')
    expect(statement.body.entries.filter((e: any) => e.type === 'ORDER').map((e: any) => e.amount)).to.deep.equal([-4410])
    // No texts unless ticked: the agent's phone is not sent 980 "received" and 980 "delivered" texts.
    expect(await count('sms_outbox')).to.equal(0)
    const csv = await c.get(`/api/bulk/${paid.body.batch.id}/results.csv`)
    expect(csv.text.trim().split('\r\n')).to.have.length(981)
  })

  it('an .xlsx upload is read like a CSV: rows by number, header skipped, numbers typed as numbers; a broken file is a 400', async () => {
    const { mtn2 } = await catalogue()
    const { c } = await agentWith(0)
    const book = xlsxOf([
      ['recipient', 'network', 'bundle'],
      ['0241234567', 'MTN', '1GB'],
      [201234567, '', '1GB'],
      ['0551234567', 'Telecel', '1GB'],
      ['0241234568', '', String(mtn2.id)]
    ])
    const res = await c.post('/api/bulk/preview', { xlsx: book.toString('base64') })
    expect(res.status, res.text).to.equal(200)
    expect(res.body.lines.map((l: any) => [l.line, l.recipient, l.network, l.price, l.error, !!l.warning])).to.deep.equal([
      [2, '0241234567', 'MTN', 4.5, null, false],
      [3, '0201234567', 'TELECEL', 4.7, null, false],
      // An MTN prefix sent as Telecel: allowed (numbers move networks), with a warning.
      [4, '0551234567', 'TELECEL', 4.7, null, true],
      [5, '0241234568', 'MTN', 8, null, false]
    ])
    expect(res.body).to.include({ total: 21.9, balance: 0, enough: false })
    const broken = await c.post('/api/bulk/preview', { xlsx: Buffer.from('not a workbook').toString('base64') })
    expect(broken.status).to.equal(400)
    expect(broken.body.error).to.equal('This file could not be read as an Excel workbook (.xlsx)')
    const template = await c.get('/api/bulk/template.csv')
    expect(template.text.split('\r\n')[0]).to.equal('recipient,network,bundle')
  })

  it('duplicates are flagged and need the tick; the line limit is a setting; a balance short of the total writes nothing', async () => {
    await catalogue()
    const { agent, c } = await agentWith(9)
    const text = `${mtn(1)} 1GB\n${mtn(2)} 1GB\n${mtn(1)} 1GB`
    const pv = await c.post('/api/bulk/preview', { text })
    expect(pv.body.lines.map((l: any) => l.duplicateOf)).to.deep.equal([null, null, 1])
    const untick = await c.post('/api/bulk', { text })
    expect(untick.status).to.equal(422)
    expect(untick.body.lines).to.deep.equal([{ line: 3, error: 'Same number and bundle as line 1' }])
    const short = await c.post('/api/bulk', { text, allowDuplicates: true })
    expect(short.status).to.equal(402)
    expect(short.body.error).to.equal('Insufficient wallet balance')
    expect(await count('order_batches')).to.equal(0)
    expect(await count('orders')).to.equal(0)
    expect(await balance(agent.id)).to.equal(900)
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { bulkMaxLines: 2 })).status).to.equal(200)
    const over = await c.post('/api/bulk/preview', { text })
    expect(over.status).to.equal(400)
    expect(over.body.error).to.equal('A bulk order holds at most 2 lines; this one has 3')
    expect((await c.post('/api/bulk/preview', { text: '  \n ' })).status).to.equal(400)
    expect((await admin.put('/api/settings', { bulkMaxLines: 1000 })).status).to.equal(200)
    await admin.post(`/api/wallet/agents/${agent.id}/adjust`, { amount: 10, direction: 'CREDIT', reason: 'More float' })
    // The total confirmed on the preview must still be the price; a closed shop takes nothing.
    const moved = await c.post('/api/bulk', { text, allowDuplicates: true, expectedTotal: 12 })
    expect(moved.status).to.equal(409)
    expect(moved.body.error).to.equal('Prices changed since the preview: the total is now GHS 13.50. Check it and pay again.')
    expect((await admin.put('/api/settings', { platformOpen: false })).status).to.equal(200)
    expect((await c.post('/api/bulk', { text, allowDuplicates: true })).status).to.equal(403)
    expect(await count('orders')).to.equal(0)
    expect((await new Client().post('/api/bulk/preview', { text })).status).to.equal(401)
  })

  it('two batches at once against a balance that covers one: exactly one is accepted, the other writes nothing', async function () {
    this.timeout(60_000)
    await catalogue()
    const { agent, c } = await agentWith(45)
    const text = (from: number) => Array.from({ length: 10 }, (_, i) => `${mtn(from + i)} 1GB`).join('\n')
    const [a, b] = await Promise.all([c.post('/api/bulk', { text: text(100) }), c.post('/api/bulk', { text: text(200) })])
    expect([a.status, b.status].sort()).to.deep.equal([201, 402])
    expect(await count('order_batches')).to.equal(1)
    expect(await count('orders')).to.equal(10)
    expect(await count('payments')).to.equal(10)
    expect(await count(`wallet_entries WHERE type = 'ORDER'`)).to.equal(1)
    expect(await balance(agent.id)).to.equal(0)
  })

  it('the vendor failing for good on 5 lines: exactly those 5 are refunded once each; the batch completes and the agent hears batch.completed', async function () {
    this.timeout(60_000)
    await catalogue()
    const { agent, c } = await agentWith(90)
    const got: any[] = []
    const receiver = http.createServer((req, res) => {
      let body = ''
      req.on('data', (d) => (body += d))
      req.on('end', () => {
        got.push(JSON.parse(body))
        res.end('ok')
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
      await app().db.sequelize.query("UPDATE agents SET webhook_url = :url, webhook_secret = 'whsec_test_secret_0123456789' WHERE id = :id", {
        replacements: { url, id: agent.id }
      })
      await app().services.settings.update({ deliveryRetryLimit: 1 }, {})
      const paid = await c.post('/api/bulk', { text: Array.from({ length: 20 }, (_, i) => `${mtn(300 + i)} 1GB`).join('\n'), sms: true })
      expect(paid.status, paid.text).to.equal(201)
      expect(await balance(agent.id)).to.equal(0)
      // Ticked: each recipient is told of its order.
      expect(await count(`sms_outbox WHERE to_phone LIKE '024%'`)).to.equal(20)
      app().services.delivery.simulatorControl({ mode: 'fail', count: 5 })
      for (let i = 0; i < 4; i++) await drain()
      const failed = await sql<{ id: number }>(`SELECT id FROM orders WHERE batch_id = :b AND delivery_status = 'FAILED' ORDER BY id`, {
        b: paid.body.batch.id
      })
      expect(failed).to.have.length(5)
      const refunds = await sql<{ order_id: number; amount_pesewas: string }>(
        `SELECT order_id, amount_pesewas FROM wallet_entries WHERE type = 'REFUND' ORDER BY order_id`
      )
      expect(refunds.map((r) => [r.order_id, Number(r.amount_pesewas)])).to.deep.equal(failed.map((f) => [f.id, 450]))
      // Asked again (a retried refund job, a second hook): nothing more.
      for (const f of failed) expect((await app().services.wallet.refundOrder(f.id, 'again')).refunded).to.equal(false)
      expect(await balance(agent.id)).to.equal(5 * 450)
      const view = await c.get(`/api/bulk/${paid.body.batch.id}`)
      expect(view.body.batch.counts).to.deep.equal({ queued: 0, delivered: 15, failed: 5, refunded: 5 })
      expect(view.body.lines.filter((l: any) => l.deliveryStatus === 'DELIVERED').every((l: any) => /^SIM-/.test(l.reference))).to.equal(true)
      const again = await c.get(`/api/bulk/${paid.body.batch.id}/failed`)
      expect(again.body.text.split('\n')).to.have.length(5)
      const completed = got.filter((e) => e.type === 'batch.completed')
      expect(completed).to.have.length(1)
      expect(completed[0].data.batch).to.include({ id: paid.body.batch.id, lines: 20, done: true })
      expect(completed[0].data.batch.counts).to.deep.equal({ queued: 0, delivered: 15, failed: 5, refunded: 5 })
      // Admin: the batches list and the order list by batch.
      const admin = await adminClient()
      const list = await admin.get('/api/bulk/admin')
      expect(list.body.batches[0]).to.deep.include({ id: paid.body.batch.id, lines: 20, total: 90 })
      expect(list.body.batches[0].agent.id).to.equal(agent.id)
      const byBatch = await admin.get(`/api/orders?batchId=${paid.body.batch.id}&limit=100`)
      expect(byBatch.body.orders).to.have.length(20)
      expect((await admin.get('/api/orders?batchId=abc')).status).to.equal(400)
      expect((await c.get('/api/bulk/admin')).status).to.equal(403)
    } finally {
      receiver.close()
    }
  })

  it('reseller API: POST /api/v1/batches needs an Idempotency-Key, answers 422 with the line errors and writes nothing, and the same request twice makes one batch', async () => {
    const { mtn1 } = await catalogue()
    const a = await agentWith(20)
    const created = await a.c.post('/api/reseller/keys', { name: 'Bulk' })
    const api = new Client()
    api.bearer = created.body.key
    const body = {
      lines: [
        { recipientNumber: mtn(1), packageId: mtn1.id },
        { recipientNumber: mtn(2), bundle: '1GB' }
      ]
    }
    expect((await api.post('/api/v1/batches', body)).status).to.equal(400)
    const wrong = await api.post('/api/v1/batches', { lines: [...body.lines, { recipientNumber: '123', bundle: '1GB' }] }, { 'Idempotency-Key': 'b-0' })
    expect(wrong.status).to.equal(422)
    expect(wrong.body.lines).to.deep.equal([{ line: 3, error: 'Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567' }])
    expect(await count('orders')).to.equal(0)
    const first = await api.post('/api/v1/batches', body, { 'Idempotency-Key': 'b-1' })
    expect(first.status, first.text).to.equal(201)
    const second = await api.post('/api/v1/batches', body, { 'Idempotency-Key': 'b-1' })
    expect(second.status).to.equal(201)
    expect(second.headers.get('idempotent-replayed')).to.equal('true')
    expect(second.body.batch.id).to.equal(first.body.batch.id)
    expect(await count('order_batches')).to.equal(1)
    expect(await count('orders')).to.equal(2)
    expect((await api.post('/api/v1/batches', { lines: [body.lines[0]] }, { 'Idempotency-Key': 'b-1' })).status).to.equal(422)
    const got = await api.get(`/api/v1/batches/${first.body.batch.id}`)
    expect(got.body.lines.map((l: any) => l.recipientNumber)).to.deep.equal([mtn(1), mtn(2)])
    // Another agent's batch reads as missing.
    const other = await agentWith(0)
    const otherKey = await other.c.post('/api/reseller/keys', { name: 'x' })
    const stranger = new Client()
    stranger.bearer = otherKey.body.key
    expect((await stranger.get(`/api/v1/batches/${first.body.batch.id}`)).status).to.equal(404)
  })
})
