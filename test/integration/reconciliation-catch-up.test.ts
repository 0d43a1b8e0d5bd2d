import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { latestDueDay } from '../../server/services/payments/gateway-days.ts'
import { bootWithFakePaystack, type FakePaystack } from '../helpers/fake-paystack.ts'
import { createUser } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'

type Booted = Awaited<ReturnType<typeof bootWithFakePaystack>>

const DAY_MS = 86_400_000
const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10)

// The daily reconciliation can no longer be missed for good: each day reconciled is recorded, a
// start reconciles the days missed, and an admin or operator reconciles a day or a range on request.
describe('daily reconciliation: catch-up and "Reconcile now" (fake Paystack)', function () {
  this.timeout(60_000)
  let booted: Booted
  let fake: FakePaystack
  const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
    app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT })
  const ps = () => booted.ps
  const admin = async () => {
    const c = new Client(ps().url)
    expect((await c.login(ADMIN.email, ADMIN.password)).status).to.equal(200)
    return c
  }
  const order = async (payer: Client) => {
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const res = await payer.post('/api/orders', { packageId: pkg, recipientNumber: '0201112222', payerPhone: '0241234567', payerNetwork: 'MTN' })
    expect(res.status, res.text).to.equal(201)
    return { id: res.body.id as number, tid: res.body.payment.transactionId as string }
  }
  const paid = async (payer: Client) => {
    const o = await order(payer)
    fake.complete(o.tid, 'success')
    const { body, signature } = fake.webhook(o.tid)
    const res = await fetch(`${ps().url}/api/webhooks/paystack`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'x-paystack-signature': signature },
      body
    })
    expect(res.status).to.equal(200)
    return o
  }
  const mismatches = async (c: Client) => (await c.get('/api/admin/payments/attention')).body.items.filter((i: any) => i.kind === 'recon_mismatch')
  const listedDays = () => fake.requests.filter((r) => r.path === '/transaction' && r.query.get('page') === '1').map((r) => r.query.get('from')!.slice(0, 10))

  before(async () => {
    booted = await bootWithFakePaystack()
    fake = booted.fake
  })
  after(async () => booted?.stop())
  beforeEach(async () => {
    await resetDb()
    ps().services.settings.invalidate()
    fake.txns.clear()
    fake.requests.length = 0
  })

  it('"Reconcile now" lists a payment paid there but pending here, one SUCCESS here but unknown there, and one whose amount differs; clean data lists nothing', async () => {
    const c = await admin()
    const today = dayKey(Date.now())
    const payer = new Client(ps().url)
    // Clean: one paid, one still waiting at both ends.
    await paid(payer)
    await order(payer)
    let res = await c.post('/api/admin/payments/reconcile', { from: today })
    expect(res.status, res.text).to.equal(200)
    expect(res.body.mismatches).to.equal(0)
    expect(res.body.runs.map((r: any) => [r.day, r.gatewayCount, r.localCount])).to.deep.equal([[today, 2, 2]])
    expect(await mismatches(c)).to.deep.equal([])

    const pendingHere = await order(payer)
    fake.complete(pendingHere.tid, 'success') // paid at the gateway, no webhook ever came
    const unknownThere = await order(payer)
    fake.txns.delete(unknownThere.tid)
    await sql(`UPDATE payments SET status = 'SUCCESS', settled_at = now() WHERE transaction_id = :tid RETURNING id`, { tid: unknownThere.tid })
    const differs = await paid(payer)
    fake.complete(differs.tid, 'success', { amount: 450 })

    res = await c.post('/api/admin/payments/reconcile', { from: today, to: today })
    expect(res.status, res.text).to.equal(200)
    expect(res.body.mismatches).to.equal(3)
    const listed = await mismatches(c)
    expect(listed.map((i: any) => [i.transactionId, i.details.day])).to.have.deep.members([
      [pendingHere.tid, today],
      [unknownThere.tid, today],
      [differs.tid, today]
    ])
    expect(listed.find((i: any) => i.transactionId === pendingHere.tid).summary).to.match(/Paid at the gateway but (PENDING|IN_PROGRESS) here/)
    expect(listed.find((i: any) => i.transactionId === unknownThere.tid).summary).to.match(/SUCCESS here but absent at the gateway/)
    expect(listed.find((i: any) => i.transactionId === differs.tid).summary).to.match(/Amounts differ/)
    // The late money was settled through the one settlement path, once.
    expect((await ps().services.payments.load(pendingHere.tid))!.status).to.equal('SUCCESS')
    // Today is still open: looked at, but it stays due for the catch-up after it ends.
    expect(await sql(`SELECT day FROM reconciled_days`)).to.deep.equal([])
  })

  it('"Reconcile now" is for admins only, checks its range, and is audited', async () => {
    const day = dayKey(Date.now() - 5 * DAY_MS)
    expect((await new Client(ps().url).post('/api/admin/payments/reconcile', { from: day })).status).to.equal(401)
    const u = await createUser()
    const buyer = new Client(ps().url)
    expect((await buyer.login(u.email, u.password)).status).to.equal(200)
    expect((await buyer.post('/api/admin/payments/reconcile', { from: day })).status).to.equal(403)
    expect(listedDays()).to.deep.equal([])

    const c = await admin()
    const bad = async (body: unknown, message: RegExp) => {
      const r = await c.post('/api/admin/payments/reconcile', body)
      expect(r.status, r.text).to.equal(400)
      expect(r.body.error).to.match(message)
    }
    await bad({}, /from is required/)
    await bad({ from: '25-11-2026' }, /from must be a day \(YYYY-MM-DD\)/)
    await bad({ from: '2026-02-30' }, /from is not a real day/)
    await bad({ from: day, to: dayKey(Date.now() - 6 * DAY_MS) }, /to must be the same day as from or later/)
    await bad({ from: day, to: dayKey(Date.now() + DAY_MS) }, /to cannot be after today/)
    await bad({ from: dayKey(Date.now() - 40 * DAY_MS), to: day }, /At most 31 days at once/)
    expect(listedDays()).to.deep.equal([])

    const to = dayKey(Date.now() - 3 * DAY_MS)
    const res = await c.post('/api/admin/payments/reconcile', { from: day, to })
    expect(res.status, res.text).to.equal(200)
    const days = [day, dayKey(Date.now() - 4 * DAY_MS), to]
    expect(res.body.runs.map((r: any) => r.day)).to.deep.equal(days)
    expect(listedDays()).to.deep.equal(days)
    expect((await sql<{ day: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM reconciled_days ORDER BY day`)).map((r) => r.day)).to.deep.equal(days)
    const audit = await sql<any>(`SELECT user_id, action, details FROM audit_logs WHERE action = 'RECONCILIATION_RUN'`)
    expect(audit).to.have.length(1)
    expect(audit[0].details).to.include({ by: 'admin', from: day, to, failure: null })
    expect(audit[0].details.days.map((d: any) => d.day)).to.deep.equal(days)
    expect(audit[0].user_id).to.be.a('number')
  })

  it('a shop stopped over 01:10 reconciles each missed day once when it starts, and a second start asks again for none', async () => {
    const latest = latestDueDay(new Date())
    const lastDone = dayKey(Date.parse(latest) - 2 * DAY_MS)
    const [run] = await sql<{ id: number }>(`INSERT INTO reconciliation_runs (day, gateway, status) VALUES (:d, 'paystack', 'DONE') RETURNING id`, {
      d: lastDone
    })
    await sql(`INSERT INTO reconciled_days (day, gateway, run_id) VALUES (:d, 'paystack', :id) RETURNING day`, { d: lastDone, id: run!.id })
    // A payment paid at the gateway on a missed day that never reached the shop: found by the catch-up.
    fake.plant({ reference: 'MISSED-DAY-1', amount: 900, createdAt: new Date(Date.parse(latest) + 3_600_000) })

    const missed = [dayKey(Date.parse(latest) - DAY_MS), latest]
    for (let start = 0; start < 2; start++) {
      const again = await bootWithFakePaystack({ PAYSTACK_BASE_URL: fake.url })
      try {
        await again.ps.services.queue.drain()
      } finally {
        await again.stop()
      }
    }
    expect(listedDays()).to.deep.equal(missed)
    const done = await sql<{ day: string; n: string }>(
      `SELECT to_char(day, 'YYYY-MM-DD') AS day, count(*) AS n FROM reconciliation_runs WHERE status = 'DONE' GROUP BY day ORDER BY day`
    )
    expect(done.map((r) => [r.day, Number(r.n)])).to.deep.equal([[lastDone, 1], ...missed.map((d) => [d, 1])])
    expect((await sql<{ day: string }>(`SELECT to_char(day, 'YYYY-MM-DD') AS day FROM reconciled_days ORDER BY day`)).map((r) => r.day)).to.deep.equal([
      lastDone,
      ...missed
    ])
    expect((await mismatches(await admin())).map((i: any) => i.transactionId)).to.deep.equal(['MISSED-DAY-1'])
  })

  it('a fresh shop catches up only the latest complete day, and never more than 31 days after a long stop', async () => {
    const services = ps().services
    const now = new Date()
    expect(await services.payments.daysToReconcile(now)).to.deep.equal([latestDueDay(now)])
    const long = dayKey(Date.parse(latestDueDay(now)) - 90 * DAY_MS)
    await sql(`INSERT INTO reconciled_days (day, gateway, run_id) VALUES (:d, 'paystack', 0) RETURNING day`, { d: long })
    const days = await services.payments.daysToReconcile(now)
    expect(days).to.have.length(31)
    expect(days.at(-1)).to.equal(latestDueDay(now))
    expect(days[0]).to.equal(dayKey(Date.parse(latestDueDay(now)) - 30 * DAY_MS))
  })
})
