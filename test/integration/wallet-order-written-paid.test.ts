import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient } from '../helpers/http.ts'
import { flushedTo } from '../helpers/index-records.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb } from '../helpers/server.ts'

// A wallet order's order and payment are written already paid by the order's own statement, with the commission
// settlement would write (ADR 0072): no settling UPDATE makes a second version of either row. Every effect a settled
// payment had is still there, once: the order paid and queued, the payment settled, the commission, the revenue
// rollups, the debit and its ledger entry, the text, the delivery pump's claim, the order.settled and delivery.changed
// events (the agent's webhooks), the audit entries.

const sql = <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const one = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) => (await sql<T>(text, replacements))[0]!

/**
 * Heap WAL records that write a row version (INSERT, UPDATE, HOT_UPDATE) on orders and payments while `fn` ran, as
 * "table record", of the transaction that inserted the order to `recipient` only: the delivery pump may claim an
 * order (its own UPDATE, in its own transaction) at any moment of the window.
 */
async function heapRecords(recipient: string, fn: () => Promise<unknown>): Promise<string[]> {
  const { start } = await one<{ start: string }>('SELECT pg_current_wal_insert_lsn()::text AS start')
  await fn()
  const { xid } = await one<{ xid: string }>('SELECT xmin::text AS xid FROM orders WHERE recipient_number = :recipient', { recipient })
  const end = await flushedTo(app().db.sequelize)
  const rows = await sql<{ rec: string }>(
    `WITH rel AS (SELECT relname AS name, pg_relation_filenode(oid) AS node FROM pg_class WHERE oid IN ('orders'::regclass, 'payments'::regclass))
     SELECT rel.name || ' ' || split_part(w.record_type, '+', 1) AS rec
       FROM pg_get_wal_records_info(:start::pg_lsn, :end::pg_lsn) w
       JOIN rel ON w.block_ref ~ ('rel [0-9]+/[0-9]+/' || rel.node || ' ')
      WHERE w.xid::text = :xid AND w.resource_manager = 'Heap' AND split_part(w.record_type, '+', 1) IN ('INSERT', 'UPDATE', 'HOT_UPDATE')
      ORDER BY w.start_lsn`,
    { start, end, xid }
  )
  return rows.map((r) => r.rec)
}

/** An API wallet order by a reseller with GHS 20 whose webhook address is set (its webhook jobs are written, not run). */
async function reseller() {
  const r = await resellerWithKey(20, 'Written paid')
  await app().db.sequelize.query("UPDATE agents SET webhook_url = 'http://127.0.0.1:9/hook', webhook_secret = 'whsec_test_secret_0123456789' WHERE id = :id", {
    replacements: { id: r.a.agent.id }
  })
  return r
}

const webhookJobs = async () =>
  Number(
    (
      await one<{ n: string }>(
        `SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'agent-webhook'`
      )
    ).n
  )

describe("a wallet order written paid by its order's statement (ADR 0072)", function () {
  this.timeout(30_000)
  before(async () => {
    await app().db.sequelize.query('CREATE EXTENSION IF NOT EXISTS pg_walinspect')
  })
  beforeEach(resetDb)

  it('writes its order and its payment once each: no second version of either row', async () => {
    const { pkg, api } = await reseller()
    // A first order, so nothing of the second is a first use (the key's mark, the settings).
    expect((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112200' }, { 'Idempotency-Key': 'warm-up' })).status).to.equal(201)
    const statuses: number[] = []
    const records = await heapRecords('0241112211', async () => {
      statuses.push((await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'once' })).status)
    })
    expect(statuses).to.deep.equal([201])
    expect(records).to.deep.equal(['orders INSERT', 'payments INSERT'])
  })

  it('gets every effect a settlement gave it, once: paid and queued, the commission, the rollups, the debit, the text, the events and webhooks, the audit entries, the pump', async () => {
    const { pkg, a, api } = await reseller()
    const settled: unknown[] = []
    const changed: unknown[] = []
    const stops = [
      app().services.events.on('order.settled', async (e) => {
        settled.push(e)
      }),
      app().services.events.on('delivery.changed', async ({ order, from, to }) => {
        changed.push({ id: order.id, from, to, payment_status: order.payment_status })
      })
    ]
    const res = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112233' }, { 'Idempotency-Key': 'effects' }).finally(() => {
      for (const stop of stops) stop()
    })
    expect(res.status, res.text).to.equal(201)
    expect(res.body.order).to.include({ paymentStatus: 'SUCCESS', deliveryStatus: 'QUEUED', amount: 4.5 })
    const id = Number(res.body.order.id)
    const agentId = a.agent.id as number
    const order = await one('SELECT * FROM orders WHERE id = :id', { id })
    expect(order).to.include({ payment_status: 'SUCCESS', delivery_status: 'QUEUED', delivery_attempts: 0, delivery_error: null, agent_id: agentId })
    const tid = order.payment_transaction_id as string
    const payment = await one('SELECT * FROM payments WHERE transaction_id = :tid', { tid })
    expect(payment).to.include({
      purpose: 'data',
      gateway: 'wallet',
      method: 'wallet',
      status: 'SUCCESS',
      message: 'Paid from wallet',
      amount_pesewas: 450,
      order_id: id,
      agent_id: agentId,
      ext_transaction_id: null
    })
    expect(payment.details).to.deep.equal({ paid: { amountPesewas: 450, currency: 'GHS' } })
    expect(payment.settled_at).to.be.instanceOf(Date)
    // The commission settlement writes: 10% of GHS 4.50 (the default settings), for the order's agent.
    expect(
      await sql(
        `SELECT agent_id, network, original_amount_pesewas AS original, commission_amount_pesewas AS commission, commission_type AS type, payment_status
           FROM commissions WHERE order_id = :id`,
        { id }
      )
    ).to.deep.equal([{ agent_id: agentId, network: 'MTN', original: 450, commission: 45, type: 'PERCENTAGE', payment_status: 'PENDING' }])
    // The reports' rollups count the order once, as paid.
    expect(await sql('SELECT network, revenue::int AS revenue, n::int AS n FROM order_revenue_by_agent WHERE agent_id = :agentId', { agentId })).to.deep.equal([
      { network: 'MTN', revenue: 450, n: 1 }
    ])
    expect(await sql('SELECT revenue::int AS revenue, n::int AS n FROM order_revenue_daily')).to.deep.equal([{ revenue: 450, n: 1 }])
    // The debit, once, with its ledger entry.
    expect(await one('SELECT balance_pesewas::int AS balance FROM wallets WHERE agent_id = :agentId', { agentId })).to.deep.equal({ balance: 2000 - 450 })
    expect(await sql("SELECT amount_pesewas::int AS amount, order_id FROM wallet_entries WHERE type = 'ORDER'")).to.deep.equal([{ amount: -450, order_id: id }])
    // The agent's "order received" text, handed to the delivery.
    const texts = await sql<{ to_phone: string; message: string }>('SELECT to_phone, message FROM sms_outbox')
    expect(texts).to.deep.equal([{ to_phone: a.agent.phone, message: 'Agent order: 1.0GB MTN data to 0241112233 has been received.' }])
    // The events other capabilities react to, once each: settled (the agent's webhook), and queued for the vendor.
    // The order's statement read the agent's webhook URL, and order.settled says the agent has one (ADR 0075).
    expect(settled).to.deep.equal([{ orderId: id, agentId, agentHooked: true }])
    expect(changed).to.deep.equal([{ id, from: 'NOT_STARTED', to: 'QUEUED', payment_status: 'SUCCESS' }])
    expect(await webhookJobs(), 'the agent hears the order paid and queued').to.equal(2)
    // The audit entries: the order's, and the payment's with what settlement did.
    const audit = await sql<{ action: string; resource_id: string; details: Record<string, unknown> }>(
      `SELECT action, resource_id, details FROM audit_logs WHERE action IN ('ORDER_CREATED', 'PAYMENT_SUCCESS') ORDER BY id`
    )
    expect(audit.map((e) => e.action)).to.deep.equal(['ORDER_CREATED', 'PAYMENT_SUCCESS'])
    expect(audit[1]).to.deep.equal({
      action: 'PAYMENT_SUCCESS',
      resource_id: tid,
      details: {
        transactionId: tid,
        purpose: 'data',
        amount: 4.5,
        gateway: 'wallet',
        method: 'wallet',
        extTransactionId: null,
        status: 'SUCCESS',
        message: 'Paid from wallet',
        simulated: true,
        orderId: id,
        commissionRecorded: true,
        deliveryQueued: true
      }
    })
    // The delivery pump claims it and delivers it, as any paid order.
    expect(await app().services.delivery.pump(null)).to.equal(1)
    expect(await one('SELECT delivery_status FROM orders WHERE id = :id', { id })).to.deep.equal({ delivery_status: 'DELIVERED' })
  })

  it('with delivery manual and commissions off: written paid and not queued, in the export candidates, no commission, and the audit entry says so', async () => {
    const { pkg, a, api } = await reseller()
    const admin = await adminClient()
    expect((await admin.put('/api/settings', { deliveryMode: 'manual', commissionEnabled: false })).status).to.equal(200)
    const res = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112244' }, { 'Idempotency-Key': 'manual' })
    expect(res.status, res.text).to.equal(201)
    expect(res.body.order).to.include({ paymentStatus: 'SUCCESS', deliveryStatus: 'NOT_STARTED' })
    const id = Number(res.body.order.id)
    expect(await one('SELECT payment_status, delivery_status FROM orders WHERE id = :id', { id })).to.deep.equal({
      payment_status: 'SUCCESS',
      delivery_status: 'NOT_STARTED'
    })
    expect(await sql('SELECT order_id FROM order_export_candidates')).to.deep.equal([{ order_id: id }])
    expect(await sql('SELECT id FROM commissions')).to.deep.equal([])
    // Not queued, so its text goes out by itself.
    expect(await sql('SELECT to_phone FROM sms_outbox')).to.deep.equal([{ to_phone: a.agent.phone }])
    const { details } = await one("SELECT details FROM audit_logs WHERE action = 'PAYMENT_SUCCESS'")
    expect(details).to.include({ orderId: id, commissionRecorded: false, deliveryQueued: false })
    expect(await app().services.delivery.pump(null)).to.equal(0)
  })

  it('a wallet that does not cover the order: 402 with the balance, and nothing written, paid rows, commission and rollups included', async () => {
    const { pkg, api } = await reseller()
    await app().db.sequelize.query('UPDATE wallets SET balance_pesewas = 449')
    const res = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112255' }, { 'Idempotency-Key': 'short' })
    expect(res.status, res.text).to.equal(402)
    expect(res.body.balance).to.equal(4.49)
    const counts = await one(
      `SELECT (SELECT count(*) FROM orders)::int AS orders, (SELECT count(*) FROM payments)::int AS payments,
              (SELECT count(*) FROM commissions)::int AS commissions, (SELECT count(*) FROM order_revenue_daily WHERE n <> 0)::int AS revenue,
              (SELECT count(*) FROM order_export_candidates)::int AS candidates, (SELECT count(*) FROM sms_outbox)::int AS texts,
              (SELECT count(*) FROM wallet_entries WHERE type = 'ORDER')::int AS debits, (SELECT count(*) FROM idempotency_keys)::int AS keys`
    )
    expect(counts).to.deep.equal({ orders: 0, payments: 0, commissions: 0, revenue: 0, candidates: 0, texts: 0, debits: 0, keys: 0 })
    expect(await one('SELECT balance_pesewas::int AS balance FROM wallets')).to.deep.equal({ balance: 449 })
    expect(await webhookJobs()).to.equal(0)
  })
})
