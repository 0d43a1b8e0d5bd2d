import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createSettleQueries, SETTLE_REFUSED } from '../../server/services/payments/queries-settle.ts'
import { gatewaySuccessWritten } from '../../server/services/payments/settle-written.ts'
import type { DeliveryService } from '../../server/services/delivery/index.ts'
import { createPackage } from '../helpers/factories.ts'
import { Client } from '../helpers/http.ts'
import { onFakePaystack, paystackOrder, postPaystackWebhook } from '../helpers/instance.ts'
import { everyCount } from '../helpers/row-counts.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'

/**
 * A gateway's settlement of a customer's order as one autocommitted statement (ADR 0086, "Alone"): the payment's read,
 * then the settling statement, with no START and no COMMIT. When the payment moved but the order, its text or its
 * entry was not written with it, the statement raises (migration 445) and nothing of it is kept; the settlement then
 * runs in a transaction as before.
 */
const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>

/** The payment's and the order's statuses: what a refused statement must leave as they were. */
const statusesOf = async (tid: string) =>
  sql(
    `SELECT p.status AS payment, p.settled_at, o.payment_status AS order, o.delivery_status AS delivery, o.updated_at
       FROM payments p JOIN orders o ON o.id = p.order_id WHERE p.transaction_id = :tid`,
    { tid }
  )

/** A visitor's order waiting for the payer (the simulator's prompt sent), with its reference and amount. */
async function pendingOrder() {
  const pkg = await createPackage({ priceUserPesewas: 450 })
  const res = await new Client().post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112233', payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(res.status, res.text).to.equal(201)
  const tid = res.body.payment.transactionId as string
  const [{ amount }] = await sql<{ amount: number }>('SELECT amount_pesewas AS amount FROM payments WHERE transaction_id = :tid', { tid })
  return { id: res.body.id as number, tid, amount: amount! }
}

const approved = (amountPesewas: number) => ({ status: 'SUCCESS' as const, message: 'Approved', amountPesewas, currency: 'GHS' })
const shapes = (sent: string[]) => sent.map((s) => s.replace(/\s+/g, ' ').slice(0, 26))
const counted = async (table: string, where: string, tid: string) =>
  Number((await sql<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${where}`, { tid }))[0]!.n)

/**
 * The settling statement run alone, as `settle` sends it for this payment read now (`edit` changes the order's columns
 * as read, to stand for a read older than a change), with the cached settings copy's version.
 */
async function settleAloneNow(tid: string, amount: number, edit: (o: Record<string, unknown>) => void = () => {}, event?: number) {
  const { sequelize } = app().db
  const { settings, audit, commissions } = app().services
  const current = await settings.get()
  const read = (await createSettleQueries(sequelize).loadWithOrder(tid))!
  const order = { ...read.order! } as Record<string, unknown>
  edit(order)
  const w = { status: 'SUCCESS', message: 'Approved' }
  const written = gatewaySuccessWritten({ audit, delivery: {} as DeliveryService }, read.row, order as never, current, w, {})
  const pay = { openStates: ['PENDING', 'IN_PROGRESS'], queue: true, version: settings.versionOf(current), commission: commissions.ofPaid(amount, current) }
  const word = { ...w, extId: null, paidPesewas: amount, currency: 'GHS', from: ['PENDING', 'IN_PROGRESS'] }
  return createSettleQueries(sequelize).settle(tid, word, pay, undefined, { ...written, event }, true)
}

/** The refusal a promise ends with (its SQLSTATE and reason), or null when it did not fail. */
const refusalOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message })
  )

describe('a gateway settlement of a customer order in one autocommitted statement (ADR 0086, "Alone")', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('two statements: the read and the settling statement, with no START and no COMMIT; its effects send nothing after it', async () => {
    const o = await pendingOrder()
    await app().services.settings.get()
    const texts = await counted('sms_outbox', 'true', o.tid)
    const { out, sent } = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount)))
    expect(out.settled).to.equal(true)
    expect(out.row).to.include({ status: 'SUCCESS', transaction_id: o.tid })
    expect(shapes(sent), sent.join('\n')).to.deep.equal(['SELECT payments.*, (SELECT', 'WITH v AS (SELECT (SELECT '])
    expect(await statusesOf(o.tid)).to.have.nested.property('[0].delivery', 'QUEUED')
    expect(await counted('audit_logs', "action = 'PAYMENT_SUCCESS' AND resource_id = :tid", o.tid)).to.equal(1)
    expect(await counted('sms_outbox', "to_phone LIKE '%241234567'", o.tid)).to.equal(1)
    expect(await counted('sms_outbox', 'true', o.tid)).to.equal(texts + 1)
    expect(await counted('commissions', 'order_id = (SELECT order_id FROM payments WHERE transaction_id = :tid)', o.tid)).to.equal(1)
    // The same word again: nothing moves, nothing is written, one statement.
    const again = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount)))
    expect(again.out.settled).to.equal(false)
    expect(await counted('sms_outbox', 'true', o.tid)).to.equal(texts + 1)
    expect(await counted('audit_logs', "action = 'PAYMENT_SUCCESS' AND resource_id = :tid", o.tid)).to.equal(1)
  })

  it('each refusal keeps nothing, table by table', async () => {
    const cases: [string, (o: { id: number; tid: string }) => Promise<void>, (row: Record<string, unknown>) => void][] = [
      [
        SETTLE_REFUSED.orderNotPaid,
        async (o) => void (await sql(`UPDATE orders SET payment_status = 'FAILED' WHERE id = :id RETURNING id`, { id: o.id })),
        () => {}
      ],
      // Saved by SQL with no NOTIFY: this instance's copy is of the version before.
      [
        SETTLE_REFUSED.orderNotPaid,
        async () => void (await sql(`UPDATE settings SET data = data || '{"deliveryMode":"manual"}'::jsonb WHERE id = 1 RETURNING id`)),
        () => {}
      ],
      [SETTLE_REFUSED.textNotDecided, async () => {}, (row) => (row.recipient_number = '0249999999')],
      // A fence no settlement meets today: an order whose delivery began before its payment settled is not queued.
      [
        SETTLE_REFUSED.notQueued,
        async (o) => void (await sql(`UPDATE orders SET delivery_status = 'PROCESSING' WHERE id = :id RETURNING id`, { id: o.id })),
        () => {}
      ],
      [
        SETTLE_REFUSED.entryNotWritten,
        async (o) => void (await sql('UPDATE orders SET amount_pesewas = 900 WHERE id = :id RETURNING id', { id: o.id })),
        () => {}
      ]
    ]
    for (const [why, stage, edit] of cases) {
      await resetDb()
      const o = await pendingOrder()
      await app().services.settings.get()
      await stage(o)
      // A webhook's event, kept before its settlement: the statement would mark it handled.
      const [event] = await sql<{ id: number }>(
        `INSERT INTO gateway_events (gateway, event_key, event, reference, payload) VALUES ('paystack', :tid, 'charge.success', :tid, '{}') RETURNING id`,
        { tid: o.tid }
      )
      const before = await everyCount()
      const statuses = await statusesOf(o.tid)
      expect(await refusalOf(settleAloneNow(o.tid, o.amount, edit, event!.id)), why).to.deep.equal({ code: 'DHS01', message: why })
      expect(await everyCount(), why).to.deep.equal(before)
      expect(await statusesOf(o.tid), why).to.deep.equal(statuses)
      expect(await sql('SELECT handled, note FROM gateway_events'), why).to.deep.equal([{ handled: false, note: null }])
    }
  })

  it('a refusal falls back to the transaction: settled once, as before', async () => {
    // The order closed meanwhile: the money goes back, in a transaction (a full refund).
    const closed = await pendingOrder()
    await sql(`UPDATE orders SET payment_status = 'FAILED' WHERE id = :id RETURNING id`, { id: closed.id })
    const a = await statementsSent(() => app().services.payments.settle(closed.tid, approved(closed.amount)))
    expect(a.out.settled).to.equal(true)
    expect(shapes(a.sent).slice(0, 4), a.sent.join('\n')).to.deep.equal([
      'SELECT payments.*, (SELECT',
      'WITH v AS (SELECT (SELECT ',
      'START TRANSACTION;',
      'WITH v AS (SELECT (SELECT '
    ])
    expect(await counted('refunds', 'transaction_id = :tid', closed.tid)).to.equal(1)
    // The recipient changed after the read: the text is the order's as it is now, written in the transaction.
    const changed = await pendingOrder()
    const read = (await app().services.payments.loadWithOrder(changed.tid))!
    await sql(`UPDATE orders SET recipient_number = '0249999999' WHERE id = :id RETURNING id`, { id: changed.id })
    const b = await statementsSent(() =>
      app().services.payments.settle(changed.tid, approved(changed.amount), {}, { before: read.row, beforeOrder: read.order })
    )
    expect(b.out.settled).to.equal(true)
    expect(b.sent, b.sent.join('\n')).to.include('START TRANSACTION;')
    expect(await statusesOf(changed.tid)).to.have.nested.property('[0].delivery', 'QUEUED')
    expect(await counted('audit_logs', "action = 'PAYMENT_SUCCESS' AND resource_id = :tid", changed.tid)).to.equal(1)
    expect(await counted('sms_outbox', "message LIKE '%0249999999%'", changed.tid)).to.equal(1)
  })

  it('two words at once: settled once, one entry, one text, one commission', async () => {
    const o = await pendingOrder()
    await app().services.settings.get()
    const texts = await counted('sms_outbox', 'true', o.tid)
    const outs = await Promise.all([1, 2, 3].map(() => app().services.payments.settle(o.tid, approved(o.amount))))
    expect(outs.filter((x) => x.settled)).to.have.length(1)
    expect(await counted('audit_logs', "action = 'PAYMENT_SUCCESS' AND resource_id = :tid", o.tid)).to.equal(1)
    expect(await counted('sms_outbox', 'true', o.tid)).to.equal(texts + 1)
    expect(await counted('commissions', 'order_id = (SELECT order_id FROM payments WHERE transaction_id = :tid)', o.tid)).to.equal(1)
  })

  it("what settlement's effects do after the statement writes nothing for a customer's order: the subscribers are pinned", () => {
    // `order.settled`: the agents' webhook, which acts only on an agent's order. `delivery.changed` to QUEUED: none
    // for a customer's order (every subscriber is for agents' orders or for later states). A new one must be weighed
    // against ADR 0086 ("Alone") before this changes: it would be refused after the commit, loudly.
    const { events } = app().services
    expect(events.scopes('order.settled')).to.have.length(1)
    const customersQueued = events
      .scopes('delivery.changed')
      .filter((s) => !(s as { agentOrdersOnly?: boolean }).agentOrdersOnly && (!(s as { to?: string[] }).to || (s as { to?: string[] }).to!.includes('QUEUED')))
    expect(customersQueued).to.deep.equal([])
  })
  describe('over a Paystack webhook', () => {
    const on = onFakePaystack('sk_test_x')
    const postWebhook = (body: string, signature: string) => postPaystackWebhook(on.ps(), body, signature)

    /** A customer's order paid at the fake gateway, its webhook not yet sent. */
    async function paidAtGateway() {
      const { id, tid } = await paystackOrder(on.ps())
      on.fake().complete(tid, 'success')
      const [{ amount }] = await sql<{ amount: number }>('SELECT amount_pesewas AS amount FROM payments WHERE transaction_id = :tid', { tid })
      return { id, tid, amount: amount! }
    }

    it('the event is marked by the settling statement run alone: no START, no COMMIT, no mark of its own', async () => {
      const o = await paidAtGateway()
      const { body, signature } = on.fake().webhook(o.tid)
      const { sent } = await statementsSent(async () => expect((await postWebhook(body, signature)).status).to.equal(200))
      const settling = sent.filter((s) => /\bUPDATE payments SET status = \$2\b/.test(s))
      expect(settling, sent.join('\n')).to.have.length(1)
      expect(settling[0]).to.match(/\bgm AS \(UPDATE gateway_events SET handled = true\b/)
      expect(
        sent.filter((s) => /^(START TRANSACTION|COMMIT);$/.test(s) || /^UPDATE gateway_events\b/.test(s)),
        sent.join('\n')
      ).to.deep.equal([])
      expect(await sql('SELECT handled, note, received_count FROM gateway_events')).to.deep.equal([{ handled: true, note: 'Settled', received_count: 1 }])
      expect(await statusesOf(o.tid)).to.have.nested.property('[0].delivery', 'QUEUED')
      expect(await counted('audit_logs', "action = 'PAYMENT_SUCCESS' AND resource_id = :tid", o.tid)).to.equal(1)
    })

    it('a refusal: the event is marked in the transaction the settlement falls back to, once', async () => {
      const o = await paidAtGateway()
      await sql(`UPDATE orders SET payment_status = 'FAILED' WHERE id = :id RETURNING id`, { id: o.id })
      const { body, signature } = on.fake().webhook(o.tid)
      const { sent } = await statementsSent(async () => expect((await postWebhook(body, signature)).status).to.equal(200))
      expect(sent, sent.join('\n')).to.include('START TRANSACTION;')
      expect(
        sent.filter((s) => /^UPDATE gateway_events SET handled\b/.test(s)),
        sent.join('\n')
      ).to.have.length(1)
      expect(await sql('SELECT handled, note FROM gateway_events')).to.deep.equal([{ handled: true, note: 'Settled' }])
      expect(await counted('refunds', 'transaction_id = :tid', o.tid)).to.equal(1)
    })

    it('a webhook and reconcile at once: settled once, one entry, one text, one commission, the event marked', async () => {
      const o = await paidAtGateway()
      const texts = await counted('sms_outbox', 'true', o.tid)
      const { body, signature } = on.fake().webhook(o.tid)
      const [hook, ...settled] = await Promise.all([
        postWebhook(body, signature),
        app().services.payments.settle(o.tid, approved(o.amount)),
        app().services.payments.settle(o.tid, approved(o.amount))
      ])
      expect(hook.status).to.equal(200)
      expect(settled.filter((x) => x.settled).length).to.be.at.most(1)
      expect(await counted('audit_logs', "action = 'PAYMENT_SUCCESS' AND resource_id = :tid", o.tid)).to.equal(1)
      expect(await counted('sms_outbox', 'true', o.tid)).to.equal(texts + 1)
      expect(await counted('commissions', 'order_id = (SELECT order_id FROM payments WHERE transaction_id = :tid)', o.tid)).to.equal(1)
      expect(await sql('SELECT handled, note FROM gateway_events')).to.deep.equal([{ handled: true, note: 'Settled' }])
    })
  })
})
