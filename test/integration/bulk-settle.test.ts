import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createPackage } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'

// A bulk order's lines are settled together, set-based (ADR 0039): each must end exactly as a single
// wallet order settled on its own does. Three lines of a batch against three single wallet orders,
// row by row, in every table settlement writes.
const sql = async <T extends object = any>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>

async function agentWith(credit: number) {
  const a = await createAgent()
  const c = new Client()
  await c.login(a.user.email, a.password)
  const admin = await adminClient()
  expect((await admin.post(`/api/wallet/agents/${a.agent.id}/adjust`, { amount: credit, direction: 'CREDIT', reason: 'Float' })).status).to.equal(200)
  await sql("UPDATE agents SET webhook_url = 'http://127.0.0.1:9/hook', webhook_secret = 'whsec_test_secret_0123456789' WHERE id = :id", { id: a.agent.id })
  return { ...a, c }
}

/** What settlement left for these orders, with ids, references and times replaced by the line's place. */
async function endState(orderIds: number[]) {
  const place = new Map(orderIds.map((id, i) => [String(id), i]))
  const tids = (await sql<{ t: string }>('SELECT transaction_id AS t FROM payments WHERE order_id IN (:ids) ORDER BY order_id', { ids: orderIds })).map(
    (r) => r.t
  )
  const placeOfTid = new Map(tids.map((t, i) => [t, i]))
  const orders = await sql(
    `SELECT package_id, package_name, network, data_size_mb, amount_pesewas, payment_status, delivery_status, delivery_attempts, delivery_error, delivered, simulated, channel
       FROM orders_view WHERE id IN (:ids) ORDER BY id`,
    { ids: orderIds }
  )
  const payments = await sql<Record<string, any>>(
    `SELECT purpose, gateway, method, status, amount_pesewas, payer_phone, email, agent_id, user_id, simulated, ext_transaction_id, settled_at IS NOT NULL AS settled,
            details - 'batchId' AS details
       FROM payments WHERE order_id IN (:ids) ORDER BY order_id`,
    { ids: orderIds }
  )
  const commissions = await sql(
    'SELECT agent_id, network, original_amount_pesewas, commission_amount_pesewas, commission_type, payment_status FROM commissions WHERE order_id IN (:ids) ORDER BY order_id',
    { ids: orderIds }
  )
  const audit = await sql<Record<string, any>>(
    `SELECT action, resource, resource_id, severity, user_id, details FROM audit_logs WHERE resource = 'PAYMENT' AND resource_id IN (:tids) ORDER BY resource_id, id`,
    { tids }
  )
  const jobs = await sql<Record<string, any>>(
    `SELECT t.identifier AS task, j.key, j.max_attempts, j.payload FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE (t.identifier = 'delivery.send' AND (j.payload->>'orderId')::int IN (:ids))
         OR (t.identifier = 'agent-webhook' AND (j.payload #>> '{payload,data,order,id}') IN (:sids))`,
    { ids: orderIds, sids: orderIds.map(String) }
  )
  const norm = (s: string | null) => (s ?? '').replace(/\d+/g, (d) => (place.has(d) ? `#${place.get(d)}` : d))
  return {
    orders,
    payments: payments as Record<string, any>[],
    commissions,
    audit: audit
      .map(
        (a): Record<string, any> => ({
          ...a,
          resource_id: placeOfTid.get(a.resource_id),
          // The message names the batch; everything else is the single path's.
          details: {
            ...a.details,
            transactionId: placeOfTid.get(a.details.transactionId),
            orderId: place.get(String(a.details.orderId)),
            message: typeof a.details.message
          }
        })
      )
      .sort((x, y) => x.resource_id! - y.resource_id!),
    jobs: jobs
      .map((j) => {
        const order = j.payload.payload?.data?.order
        return JSON.stringify({
          task: j.task,
          key: norm(j.key),
          max: j.max_attempts,
          payload: order
            ? {
                agentId: j.payload.agentId === undefined ? null : 'agent',
                type: j.payload.payload.type,
                order: { ...order, id: place.get(String(order.id)), transactionId: placeOfTid.get(order.transactionId), createdAt: null, updatedAt: null }
              }
            : // The single order's job also carries its agent's "order received" text; a batch line sends none (ADR 0039).
              { ...j.payload, orderId: place.get(String(j.payload.orderId)), sms: undefined }
        })
      })
      .sort()
  }
}

describe('bulk orders: lines settled together end as single wallet orders do', () => {
  beforeEach(async () => {
    await resetDb()
    await app().services.settings.update({ commissionEnabled: true, commissionType: 'PERCENTAGE', commissionPercentage: 10 }, {})
  })

  it('a 3-line batch and 3 single wallet orders: same payments, orders, commissions, audit entries and jobs', async () => {
    await app().db.models.Package.destroy({ where: {} })
    const pkg = await createPackage({ network: 'MTN', sizeMb: 1024, priceUserPesewas: 500, priceAgentPesewas: 450 })
    const pkg2 = await createPackage({ network: 'MTN', sizeMb: 2048, priceUserPesewas: 900, priceAgentPesewas: 800 })
    app().services.packages.invalidate()
    const numbers = ['0241000001', '0241000002', '0241000003']
    const sizes = [pkg, pkg2, pkg]

    const single = await agentWith(100)
    const singleIds: number[] = []
    for (let i = 0; i < 3; i++) {
      const res = await single.c.post('/api/orders', { packageId: sizes[i]!.id, recipientNumber: numbers[i], payFrom: 'wallet' })
      expect(res.status, res.text).to.be.oneOf([200, 201])
      singleIds.push((await sql<{ id: number }>('SELECT id FROM orders WHERE agent_id = :a ORDER BY id DESC LIMIT 1', { a: single.agent.id }))[0]!.id)
    }

    const bulk = await agentWith(100)
    const res = await bulk.c.post('/api/bulk', { text: numbers.map((n, i) => `${n},MTN,${sizes[i]!.id}`).join('\n') })
    expect(res.status, res.text).to.equal(201)
    const batchIds = (await sql<{ id: number }>('SELECT id FROM orders WHERE batch_id = :b ORDER BY id', { b: res.body.id ?? res.body.batch?.id })).map(
      (r) => r.id
    )
    expect(batchIds).to.have.length(3)

    const a = await endState(singleIds)
    const b = await endState(batchIds)
    // Not vacuous: each line has its commission, its PAYMENT_SUCCESS entry and two webhooks; no delivery job (the pump takes it, ADR 0063).
    expect(a.commissions).to.have.length(3)
    expect(a.audit.map((x) => x.action)).to.deep.equal(['PAYMENT_SUCCESS', 'PAYMENT_SUCCESS', 'PAYMENT_SUCCESS'])
    expect(a.jobs.filter((j) => j.includes('delivery.send'))).to.have.length(0)
    expect(a.jobs.filter((j) => j.includes('agent-webhook'))).to.have.length(6)
    const agentFree = (s: typeof a) => ({
      ...s,
      payments: s.payments.map((p) => ({ ...p, agent_id: !!p.agent_id, user_id: !!p.user_id, email: !!p.email })),
      audit: s.audit.map((x) => ({ ...x, user_id: !!x.user_id }))
    })
    expect(agentFree(b).orders).to.deep.equal(agentFree(a).orders)
    expect(agentFree(b).payments).to.deep.equal(agentFree(a).payments)
    expect(b.commissions.map((c: any) => ({ ...c, agent_id: !!c.agent_id }))).to.deep.equal(a.commissions.map((c: any) => ({ ...c, agent_id: !!c.agent_id })))
    expect(agentFree(b).audit).to.deep.equal(agentFree(a).audit)
    expect(b.jobs).to.deep.equal(a.jobs)
    // Left out of the comparison above: each single order's agent is told of it by a text that rides its
    // delivery (handed to the pump, ADR 0063); a batch line sends none (ADR 0039).
    const texts = await sql<{ id: number; message: string }>('SELECT id, message FROM sms_outbox ORDER BY id')
    expect(texts.map((t) => t.message)).to.deep.equal(numbers.map((n, i) => `Agent order: ${i === 1 ? '2.0GB' : '1.0GB'} MTN data to ${n} has been received.`))
    await app().services.queue.drain()
    const sent = await sql<{ id: number; status: string }>('SELECT id, status FROM sms_outbox WHERE id IN (:ids) ORDER BY id', { ids: texts.map((t) => t.id) })
    expect(sent.map((t) => t.status)).to.deep.equal(['SENT', 'SENT', 'SENT'])
  })

  it('with manual delivery, neither the lines nor single wallet orders are queued for a vendor', async () => {
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
    const pkg = (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number
    const single = await agentWith(100)
    const res1 = await single.c.post('/api/orders', { packageId: pkg, recipientNumber: '0241000001', payFrom: 'wallet' })
    expect(res1.status, res1.text).to.be.oneOf([200, 201])
    const bulk = await agentWith(100)
    const res = await bulk.c.post('/api/bulk', { text: `0241000002,MTN,${pkg}\n0241000003,MTN,${pkg}` })
    expect(res.status, res.text).to.equal(201)
    const orders = await sql<{ payment_status: string; delivery_status: string }>('SELECT payment_status, delivery_status FROM orders ORDER BY id')
    expect(orders).to.deep.equal([
      { payment_status: 'SUCCESS', delivery_status: 'NOT_STARTED' },
      { payment_status: 'SUCCESS', delivery_status: 'NOT_STARTED' },
      { payment_status: 'SUCCESS', delivery_status: 'NOT_STARTED' }
    ])
    const jobs = await sql(
      `SELECT 1 FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'delivery.send'`
    )
    expect(jobs).to.have.length(0)
  })
})
