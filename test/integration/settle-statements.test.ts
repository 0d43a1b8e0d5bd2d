import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import type { DeliveryRow } from '../../server/services/delivery/types.ts'
import { createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { statementsSent } from '../helpers/statements.ts'
import { resellerWithKey } from '../helpers/reseller.ts'

// What settling a data payment asks of PostgreSQL (ADR 0055): the settling UPDATE pays its order in
// the same statement, so settlement's part of an order is counted here and must not grow back.
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const one = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) => (await sql<T>(text, replacements))[0]!

/** A visitor's order waiting for the payer (the simulator's prompt sent), with its reference and amount. */
async function pendingOrder() {
  const pkg = await createPackage({ priceUserPesewas: 450 })
  const res = await new Client().post('/api/orders', { packageId: pkg.id, recipientNumber: '0241112233', payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(res.status, res.text).to.equal(201)
  const tid = res.body.payment.transactionId as string
  const { amount } = await one<{ amount: number }>('SELECT amount_pesewas AS amount FROM payments WHERE transaction_id = :tid', { tid })
  return { id: res.body.id as number, tid, amount }
}

const approved = (amountPesewas: number) => ({ status: 'SUCCESS' as const, message: 'Approved', amountPesewas, currency: 'GHS' })
const orderOf = (id: number) =>
  one<{ payment_status: string; delivery_status: string }>('SELECT payment_status, delivery_status FROM orders WHERE id = :id', { id })
/** The statements from the settling UPDATE up to the commit: settlement's part of the order. */
const settlementPart = (sent: string[]) => sent.slice(sent.findIndex((s) => /\bUPDATE payments SET status = \$2\b/.test(s)))
const commissionOf = (orderId: number) =>
  one<{ original: number; commission: number; type: string }>(
    'SELECT original_amount_pesewas AS original, commission_amount_pesewas AS commission, commission_type AS type FROM commissions WHERE order_id = :orderId',
    { orderId }
  )
const auditOf = (tid: string) =>
  one<{ details: Record<string, unknown> }>("SELECT details FROM audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id = :tid", { tid })
const shapes = (sent: string[]) => sent.map((s) => s.replace(/\s+/g, ' ').slice(0, 40))

describe('settlement: its statements (ADR 0055)', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it("a gateway's success pays the order and writes its commission, its text and its audit entry in the settling statement: one statement for the five, by name", async () => {
    const o = await pendingOrder()
    await app().services.settings.get()
    const { out, sent, named } = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount)))
    expect(out.settled).to.equal(true)
    expect(await orderOf(o.id)).to.deep.equal({ payment_status: 'SUCCESS', delivery_status: 'QUEUED' })
    const [settling] = sent.filter((s) => /\bUPDATE payments SET status = \$2\b/.test(s))
    expect(settling, sent.join('\n')).to.match(/\bUPDATE orders SET payment_status\b/)
    expect(settling, sent.join('\n')).to.match(/\bINSERT INTO commissions\b/)
    // The commission recordForOrder would have written: 10% of GHS 4.50 (the default settings).
    expect(await commissionOf(o.id)).to.deep.equal({ original: 450, commission: 45, type: 'PERCENTAGE' })
    expect((await auditOf(o.tid)).details).to.include({ commissionRecorded: true, deliveryQueued: true })
    expect(named).to.include(settling)
    expect(
      sent.filter((s) => /^UPDATE orders\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    // The payment read before (with its order's columns its text is filled from, ADR 0086), then the settling
    // statement (payment, order and its commission, the text and the audit entry) as its own transaction (ADR 0086,
    // "Alone"): no START, no COMMIT, no delivery job, the paid order is its own queue row (ADR 0056). Nothing reads
    // the settings: the cached copy is the saved version.
    expect(settling, sent.join('\n')).to.match(/\bINSERT INTO sms_outbox\b/)
    expect(settling, sent.join('\n')).to.match(/\bINSERT INTO audit_logs\b/)
    expect(shapes(sent), sent.join('\n')).to.deep.equal(['SELECT payments.*, (SELECT jsonb_build_o', 'WITH v AS (SELECT (SELECT xmin::text FRO'])
  })

  it('a settings save not heard of yet: the order is paid after the settings are read afresh, and queued as the saved row says', async () => {
    const o = await pendingOrder()
    await app().services.settings.get()
    // Saved by SQL with no NOTIFY: this instance's copy still says automatic delivery.
    await app().db.sequelize.query(`UPDATE settings SET data = data || '{"deliveryMode":"manual"}'::jsonb WHERE id = 1`)
    const { out, sent } = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount)))
    expect(out.settled).to.equal(true)
    expect(await orderOf(o.id)).to.deep.equal({ payment_status: 'SUCCESS', delivery_status: 'NOT_STARTED' })
    expect(
      sent.filter((s) => /^UPDATE orders SET payment_status\b/.test(s)),
      sent.join('\n')
    ).to.have.length(1)
    expect(
      (await one<{ n: string }>("SELECT count(*) AS n FROM audit_logs WHERE action = 'PAYMENT_SUCCESS' AND resource_id = :tid", { tid: o.tid })).n
    ).to.equal('1')
  })

  it("an order whose amount is not the payment's: its commission is the order's amount's, written after the statement as before", async () => {
    const o = await pendingOrder()
    await app().db.sequelize.query('UPDATE orders SET amount_pesewas = 900 WHERE id = :id', { replacements: { id: o.id } })
    const { out, sent } = await statementsSent(() => app().services.payments.settle(o.tid, approved(o.amount)))
    expect(out.settled).to.equal(true)
    expect(await commissionOf(o.id)).to.deep.equal({ original: 900, commission: 90, type: 'PERCENTAGE' })
    expect(
      sent.filter((s) => /^INSERT INTO commissions\b/.test(s)),
      sent.join('\n')
    ).to.have.length(1)
    expect((await auditOf(o.tid)).details).to.include({ commissionRecorded: true })
  })

  it('with commissions turned off, the settling statement writes none and the audit entry says so', async () => {
    const o = await pendingOrder()
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { commissionEnabled: false })).status).to.equal(200)
    await app().services.payments.settle(o.tid, approved(o.amount))
    expect(await orderOf(o.id)).to.deep.equal({ payment_status: 'SUCCESS', delivery_status: 'QUEUED' })
    expect(await sql('SELECT id FROM commissions WHERE order_id = :id', { id: o.id })).to.deep.equal([])
    expect((await auditOf(o.tid)).details).to.include({ commissionRecorded: false })
  })

  it('the order handed on by the settling statement is a row as pg gives it: its timestamps are Dates', async () => {
    const o = await pendingOrder()
    const seen: DeliveryRow[] = []
    const stop = app().services.events.on('delivery.changed', async ({ order }) => {
      seen.push(order)
    })
    try {
      await app().services.payments.settle(o.tid, approved(o.amount))
    } finally {
      stop()
    }
    expect(seen).to.have.length(1)
    const order = seen[0] as DeliveryRow & { created_at: unknown; updated_at: unknown }
    expect(order).to.include({ id: o.id, delivery_status: 'QUEUED', payment_status: 'SUCCESS', delivered_at: null })
    expect(order.created_at).to.be.instanceOf(Date)
    expect(order.updated_at).to.be.instanceOf(Date)
  })

  it("a wallet order over the reseller API: written paid by the order's statement, with its commission; settlement's part, its audit entry, and the answer's row too, as its own transaction: nothing follows", async () => {
    const { pkg, a, api } = await resellerWithKey(20, 'Counted')
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    const { out, sent, named } = await statementsSent(() =>
      api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'counted-1' })
    )
    expect(out.status, out.text).to.equal(201)
    expect(out.body.order).to.include({ paymentStatus: 'SUCCESS', deliveryStatus: 'QUEUED' })
    // The whole order (ADR 0061: the key's statement also counts the request and reads its user; ADR 0065: and the
    // Idempotency-Key's earlier use and the package, and the order's statement writes the payment and the debit;
    // ADR 0063: no delivery job; ADR 0068: the key's statement reads the price rule too, and settlement's audit entry is
    // written by the answer's read of the order; ADR 0072: the order, its payment and its commission written paid;
    // ADR 0075: an agent without a webhook URL, as the order's statement read it: no read of the order for its webhook;
    // and the agent's text written by the order's statement; ADR 0079: settlement's audit entry written by the order's
    // statement too, which returns the answer's orders_view row, so nothing is read after it, and is autocommitted:
    // no START, no COMMIT).
    expect(sent, sent.join('\n')).to.have.length(2)
    expect(
      sent.filter((s) => /\bUPDATE (payments|orders)\b/.test(s)),
      sent.join('\n')
    ).to.deep.equal([])
    const placing = sent.findIndex((s) => /INSERT INTO orders\b/.test(s))
    expect(sent[placing], sent.join('\n')).to.match(/\bINSERT INTO commissions\b/)
    expect(sent[placing], sent.join('\n')).to.match(/\bINSERT INTO sms_outbox\b/)
    expect(sent[placing], sent.join('\n')).to.match(/\bpe AS \(INSERT INTO audit_logs\b/)
    expect(shapes(sent.slice(placing + 1)), sent.join('\n')).to.deep.equal([])
    // Every statement of settlement's part goes by name (parsed and planned once per connection).
    const unnamed = sent.slice(placing).filter((s) => !named.includes(s) && !/^COMMIT/.test(s))
    expect(unnamed, unnamed.join('\n')).to.deep.equal([])
    expect(await orderOf(out.body.order.id)).to.deep.equal({ payment_status: 'SUCCESS', delivery_status: 'QUEUED' })
  })
})
