import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { onFakePaystack, paystackOrder, postPaystackWebhook } from '../helpers/instance.ts'
import { app } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

/**
 * A Paystack `charge.success` over the signed webhook (ADR 0087): the event's record and the payment's read are one
 * statement, so a customer's order is settled in two (that one, then the settling statement run alone). A repeated
 * event, a webhook racing reconcile and an event for a reference this shop never issued are answered as before.
 */
const sql = <T extends object = Record<string, unknown>>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const counted = async (table: string, where: string, tid: string) =>
  Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, { tid }))[0]!.n)
const shapes = (sent: string[]) => sent.map((s) => s.replace(/\s+/g, ' ').slice(0, 32))
const events = () => sql('SELECT event, reference, handled, note, received_count FROM gateway_events ORDER BY id')
const STORE_AND_READ = 'WITH e AS ( INSERT INTO gateway_events'.slice(0, 32)
const SETTLE = 'WITH v AS (SELECT (SELECT xmin::text'.slice(0, 32)
const MARK = 'UPDATE gateway_events SET handled'.slice(0, 32)

describe('a Paystack charge.success over the signed webhook: its statements', function () {
  this.timeout(30_000)
  const on = onFakePaystack('sk_test_x')
  const post = (w: { body: string; signature: string }) => postPaystackWebhook(on.ps(), w.body, w.signature)

  /** A customer's order paid at the fake gateway, its webhook not yet sent. */
  async function paidAtGateway() {
    const { id, tid } = await paystackOrder(on.ps())
    on.fake().complete(tid, 'success')
    const [{ amount }] = await sql<{ amount: number }>('SELECT amount_pesewas AS amount FROM payments WHERE transaction_id = :tid', { tid })
    await on.ps().services.settings.get()
    return { id, tid, amount: amount! }
  }
  const settledOnce = async (tid: string, texts: number) => {
    expect(await counted('audit_logs', "action = 'PAYMENT_SUCCESS' AND resource_id = :tid", tid)).to.equal(1)
    expect(await counted('commissions', 'order_id = (SELECT order_id FROM payments WHERE transaction_id = :tid)', tid)).to.equal(1)
    expect(await counted('sms_outbox', 'true', tid)).to.equal(texts + 1)
    expect(await counted('payments', "transaction_id = :tid AND status = 'SUCCESS'", tid)).to.equal(1)
  }

  it("a customer's order: two named statements, the event's record with the payment's read, then the settling statement", async () => {
    const o = await paidAtGateway()
    const { out, sent, named } = await statementsSent(async () => {
      const res = await post(on.fake().webhook(o.tid))
      return { status: res.status, body: await res.json() }
    })
    expect(out).to.deep.equal({ status: 200, body: { received: true } })
    expect(shapes(sent), sent.join('\n')).to.deep.equal([STORE_AND_READ, SETTLE])
    expect(named).to.deep.equal(sent)
    // The record's commit does not wait for the WAL flush: the settling statement's, after it, does.
    expect(sent[0]).to.include("set_config('synchronous_commit', 'off', true)")
    expect(await events()).to.deep.equal([{ event: 'charge.success', reference: o.tid, handled: true, note: 'Settled', received_count: 1 }])
    expect(await sql('SELECT payment_status, delivery_status FROM orders WHERE id = :id', { id: o.id })).to.deep.equal([
      { payment_status: 'SUCCESS', delivery_status: 'QUEUED' }
    ])
    await settledOnce(o.tid, 0)
  })

  it('the same event again: counted again and marked on its own, nothing settled again', async () => {
    const o = await paidAtGateway()
    const w = on.fake().webhook(o.tid)
    expect((await post(w)).status).to.equal(200)
    const { out, sent } = await statementsSent(async () => (await post(w)).status)
    expect(out).to.equal(200)
    expect(shapes(sent), sent.join('\n')).to.deep.equal([STORE_AND_READ, MARK])
    expect(await events()).to.deep.equal([{ event: 'charge.success', reference: o.tid, handled: true, note: 'Settled', received_count: 2 }])
    await settledOnce(o.tid, 0)
  })

  it('the same event twice at once, another event of the payment and two reconciles with them: settled once', async () => {
    const o = await paidAtGateway()
    const w = on.fake().webhook(o.tid)
    const other = JSON.parse(w.body) as { event: string; data: Record<string, unknown> }
    const second = on.fake().event(other.event, { ...other.data, id: 987654 })
    const answers = await Promise.all([
      post(w),
      post(w),
      post(second),
      on.ps().services.payments.settle(o.tid, { status: 'SUCCESS', message: 'Approved', amountPesewas: o.amount, currency: 'GHS' }),
      app().services.payments.settle(o.tid, { status: 'SUCCESS', message: 'Approved', amountPesewas: o.amount, currency: 'GHS' })
    ])
    expect(answers.slice(0, 3).map((r) => (r as Response).status)).to.deep.equal([200, 200, 200])
    expect(answers.slice(3).filter((x) => (x as { settled: boolean }).settled).length).to.be.at.most(1)
    await settledOnce(o.tid, 0)
    // Which of the three requests inserts first is theirs to race: the rows by their count, not their ids.
    const rows = await sql<{ received_count: number }>(
      'SELECT event, reference, handled, note, received_count FROM gateway_events ORDER BY received_count DESC, id'
    )
    expect(rows).to.deep.equal([
      { event: 'charge.success', reference: o.tid, handled: true, note: 'Settled', received_count: 2 },
      { event: 'charge.success', reference: o.tid, handled: true, note: 'Settled', received_count: 1 }
    ])
  })

  it('a reference this shop never issued: kept, unhandled, answered as before', async () => {
    const w = on.fake().event('charge.success', { id: 4242, reference: 'NOT-OURS-1', status: 'success', amount: 500, currency: 'GHS' })
    const { out, sent } = await statementsSent(async () => {
      const res = await post(w)
      return { status: res.status, body: await res.json() }
    })
    expect(out).to.deep.equal({ status: 200, body: { received: true } })
    expect(shapes(sent), sent.join('\n')).to.deep.equal([STORE_AND_READ, MARK])
    const unknown = { event: 'charge.success', reference: 'NOT-OURS-1', handled: false, note: 'A payment for a reference this shop never issued' }
    expect(await events()).to.deep.equal([{ ...unknown, received_count: 1 }])
    // Again: counted again, still unhandled; no payment was made up for it.
    expect((await post(w)).status).to.equal(200)
    expect(await events()).to.deep.equal([{ ...unknown, received_count: 2 }])
    expect(await counted('payments', 'transaction_id = :tid', 'NOT-OURS-1')).to.equal(0)
  })

  it('a charge.success without a reference: kept with none, unhandled', async () => {
    const w = on.fake().event('charge.success', { id: 4343, status: 'success', amount: 500, currency: 'GHS' })
    expect((await post(w)).status).to.equal(200)
    expect(await events()).to.deep.equal([
      { event: 'charge.success', reference: null, handled: false, note: 'A payment for a reference this shop never issued', received_count: 1 }
    ])
  })
})
