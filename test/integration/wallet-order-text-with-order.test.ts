import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { useArkeselInstance } from '../helpers/arkesel-instance.ts'
import { Client } from '../helpers/http.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

// A wallet order's "order received" text for its agent is written by the order's own statement (ADR 0075): it
// exists exactly when the order does, and it is sent once, by the delivery pump with the order (delivery automatic)
// or by its own job (manual), as a text written by settlement's effects was.

const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
/** The texts that name `recipient` (an order's "received" and "delivered"), oldest first. */
const texts = (recipient: string) =>
  sql<{ to_phone: string; message: string; status: string; attempts: number }>(
    "SELECT to_phone, message, status, attempts FROM sms_outbox WHERE message LIKE '%' || :recipient || '%' ORDER BY id",
    { recipient }
  )

describe("a wallet order: its agent's text written by the order's statement (ADR 0075)", function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it("the text is a CTE of the order's statement, no INSERT of its own: two statements; the pump sends it once with the order", async () => {
    const { pkg, a, api } = await resellerWithKey(20, 'Texted')
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    await app().services.queue.drain()
    const { out, sent } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'one' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order).to.include({ paymentStatus: 'SUCCESS', deliveryStatus: 'QUEUED' })
    const [placing] = sent.filter((s) => /INSERT INTO orders\b/.test(s))
    expect(placing, sent.join('\n')).to.match(/\bINSERT INTO sms_outbox\b/)
    expect(
      sent.filter((s) => /^INSERT INTO sms_outbox\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    expect(sent, sent.join('\n')).to.have.length(2)
    expect(await texts('0241112211')).to.deep.equal([
      { to_phone: a.agent.phone, message: 'Agent order: 1.0GB MTN data to 0241112211 has been received.', status: 'QUEUED', attempts: 0 }
    ])
    await app().services.queue.drain()
    const [order] = await sql('SELECT delivery_status FROM orders WHERE id = :id', { id: out.body.order.id })
    expect(order).to.deep.equal({ delivery_status: 'DELIVERED' })
    // Sent once, and the delivered text after it.
    expect((await texts('0241112211')).slice(0, 1)).to.deep.equal([
      { to_phone: a.agent.phone, message: 'Agent order: 1.0GB MTN data to 0241112211 has been received.', status: 'SENT', attempts: 1 }
    ])
  })

  it('delivery manual: the text written with the order gets its own job and is sent once', async () => {
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
    const { pkg, a, api } = await resellerWithKey(20, 'Manual')
    const out = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112222' }, { 'Idempotency-Key': 'manual' })
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order).to.include({ paymentStatus: 'SUCCESS', deliveryStatus: 'NOT_STARTED' })
    const jobs = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'sms.send'`
    )
    expect(jobs).to.deep.equal([{ n: 1 }])
    await app().services.queue.drain()
    expect(await texts('0241112222')).to.deep.equal([
      { to_phone: a.agent.phone, message: 'Agent order: 1.0GB MTN data to 0241112222 has been received.', status: 'SENT', attempts: 1 }
    ])
  })

  it('no template for agents: no text, and the order is placed; a wallet short of money: no text either', async () => {
    await app().services.settings.update({ smsOrderCreatedAgent: '' }, {})
    const { pkg, api } = await resellerWithKey(5, 'Quiet')
    const out = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112233' }, { 'Idempotency-Key': 'quiet' })
    expect(out.status, out.text).to.equal(201)
    expect(await texts('0241112233')).to.deep.equal([])
    await app().services.settings.update({ smsOrderCreatedAgent: 'Agent order: {dataSize} {network} data to {recipientNumber} has been received.' }, {})
    // GHS 0.50 left: the next order (GHS 4.50) is refused, and its text is rolled back with it.
    const short = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112234' }, { 'Idempotency-Key': 'short' })
    expect(short.status, short.text).to.equal(402)
    expect(await texts('0241112234')).to.deep.equal([])
    expect(await sql('SELECT count(*)::int AS n FROM orders')).to.deep.equal([{ n: 1 }])
  })

  describe('through Arkesel (fake)', () => {
    const ark = useArkeselInstance()

    it('a text the provider refuses is FAILED with its reason, once; the order stays paid', async () => {
      await app().services.settings.update({ deliveryMode: 'manual' }, {})
      ark.app.services.settings.invalidate()
      const { pkg, a, api: own } = await resellerWithKey(20, 'Refused')
      const api = new Client(ark.app.url)
      api.bearer = own.bearer
      ark.fake.sent.length = 0
      ark.fake.failNext(1, 402)
      const out = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112244' }, { 'Idempotency-Key': 'refused' })
      expect(out.status, out.text).to.equal(201)
      await ark.app.services.queue.drain()
      expect(await sql('SELECT to_phone, status, attempts, error FROM sms_outbox')).to.deep.equal([
        { to_phone: a.agent.phone, status: 'FAILED', attempts: 1, error: 'Arkesel: Insufficient balance' }
      ])
      expect(ark.fake.sent).to.have.length(0)
      expect(await sql('SELECT payment_status FROM orders WHERE id = :id', { id: out.body.order.id })).to.deep.equal([{ payment_status: 'SUCCESS' }])
    })
  })
})
