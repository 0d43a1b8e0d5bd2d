import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { toGhs } from '../../server/lib/money.ts'
import { adminClient, type Client } from '../helpers/http.ts'
import { ADMIN, app, resetDb } from '../helpers/server.ts'
import { paidSimulatorOrder } from '../helpers/simulator-order.ts'

// The admin's refunds on the payment simulator: what each refusal says, and what a decided refund
// leaves behind (its row, its audit entries, its queued job), which the money tests only count.
const sql = async <T extends object = Record<string, any>>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>

const refundOrder = (admin: Client, id: number | string, body: Record<string, unknown>) => admin.post(`/api/admin/orders/${id}/refund`, body)
const refundPayment = (admin: Client, tid: string, body: Record<string, unknown>) => admin.post(`/api/admin/payments/${tid}/refund`, body)

async function expectRefused(res: { status: number; body: any }, status: number, error: string) {
  expect(res.status, JSON.stringify(res.body)).to.equal(status)
  expect(res.body.error).to.equal(error)
}

describe("the admin's refunds", () => {
  let admin: Client
  beforeEach(async () => {
    await resetDb()
    // Paid orders wait for the admin: an order the vendor may be delivering is never refunded.
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
    admin = await adminClient()
  })

  it('an order: the id and the reason are checked before the order, each refusal says why, and nothing is written', async () => {
    const { id } = await paidSimulatorOrder()
    await expectRefused(await refundOrder(admin, 0, { reason: 'x' }), 400, 'Invalid order')
    await expectRefused(await refundOrder(admin, 999999, {}), 400, 'Please give a reason for the refund')
    await expectRefused(await refundOrder(admin, 999999, { reason: '   ' }), 400, 'Please give a reason for the refund')
    await expectRefused(await refundOrder(admin, id, { reason: 'x'.repeat(501) }), 400, 'Reason must be at most 500 characters')
    await sql(`UPDATE orders SET delivery_status = 'PROCESSING' WHERE id = :id RETURNING id`, { id })
    await expectRefused(await refundOrder(admin, id, { reason: 'x' }), 409, 'This order is being delivered; refund it if the delivery fails')
    expect(await sql('SELECT id FROM refunds')).to.have.length(0)

    await sql(`UPDATE orders SET delivery_status = 'NOT_STARTED' WHERE id = :id RETURNING id`, { id })
    const done = await refundOrder(admin, id, { reason: ` ${'y'.repeat(500)} ` })
    expect(done.status, done.text).to.equal(201)
    expect((await sql('SELECT reason FROM refunds'))[0]!.reason).to.equal('y'.repeat(500))
    await expectRefused(await refundOrder(admin, id, { reason: 'again' }), 409, 'This order has already been refunded')
  })

  it("by reference: an order's payment keeps the order's checks; one that bought something else is refused; a top-up's needs a reason", async () => {
    await expectRefused(await refundPayment(admin, 'abc', { reason: 'x' }), 404, 'Payment not found')
    await expectRefused(await refundPayment(admin, '123456789', { reason: 'x' }), 404, 'Payment not found')
    const { id, tid } = await paidSimulatorOrder()
    await sql(`UPDATE orders SET delivery_status = 'PROCESSING' WHERE id = :id RETURNING id`, { id })
    await expectRefused(await refundPayment(admin, tid, { reason: 'x' }), 409, 'This order is being delivered; refund it if the delivery fails')

    const [{ id: agentFeeId }] = (await sql<{ id: number }>(
      `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas) VALUES ('555000111', 'agent_fee', 'simulator', 'momo', 'SUCCESS', 2000) RETURNING id`
    )) as [{ id: number }]
    expect(agentFeeId).to.be.a('number')
    await expectRefused(
      await refundPayment(admin, '555000111', { reason: 'x' }),
      409,
      "Only an order's payment, a wallet top-up or a bulk order payment can be refunded here"
    )
    await sql(`UPDATE payments SET purpose = 'wallet_topup' WHERE transaction_id = '555000111' RETURNING id`)
    for (const body of [{}, { reason: '  ' }]) await expectRefused(await refundPayment(admin, '555000111', body), 400, 'Please give a reason for the refund')
    expect(await sql('SELECT id FROM refunds')).to.have.length(0)
  })

  it('a refund decided names the admin in its row and audit entry, with every detail, and queues one job keyed by it; its final word is audited too', async () => {
    const { id, tid } = await paidSimulatorOrder()
    const [commission] = await sql<{ c: number }>('SELECT commission_amount_pesewas AS c FROM commissions WHERE order_id = :id', { id })
    const [adminUser] = await sql<{ id: number }>('SELECT id FROM users WHERE email = :email', { email: ADMIN.email })
    const res = await refundOrder(admin, id, { reason: 'Customer asked' })
    expect(res.status, res.text).to.equal(201)
    const [refund] = await sql('SELECT id, kind, amount_pesewas, requested_by, status FROM refunds WHERE transaction_id = :tid', { tid })
    expect(refund).to.deep.equal({ id: res.body.refundId, kind: 'full', amount_pesewas: 500, requested_by: adminUser!.id, status: 'PENDING' })
    const [issued] = await sql(`SELECT user_id, severity, details FROM audit_logs WHERE action = 'REFUND_ISSUED' AND resource_id = :tid`, { tid })
    expect(issued).to.deep.equal({
      user_id: adminUser!.id,
      severity: 'HIGH',
      details: {
        refundId: refund!.id,
        transactionId: tid,
        kind: 'full',
        amount: 5,
        reason: 'Customer asked',
        gateway: 'simulator',
        orderId: id,
        commissionReversed: commission ? toGhs(Number(commission.c)) : 0
      }
    })
    const jobs = await sql(
      `SELECT key, max_attempts FROM graphile_worker._private_jobs WHERE task_id = (SELECT id FROM graphile_worker._private_tasks WHERE identifier = 'payments.refund')`
    )
    expect(jobs).to.deep.equal([{ key: `refund:${refund!.id}`, max_attempts: 25 }])

    await app().services.queue.drain()
    const [processed] = await sql(`SELECT severity, details FROM audit_logs WHERE action = 'REFUND_PROCESSED' AND resource_id = :tid`, { tid })
    expect(processed).to.deep.include({ severity: 'MEDIUM' })
    expect(processed!.details).to.include({ refundId: refund!.id, amount: 5 })

    // The simulator refuses refunds to payers whose number ends in 0002.
    const other = await paidSimulatorOrder('0241230002')
    expect((await refundOrder(admin, other.id, { reason: 'Customer asked' })).status).to.equal(201)
    await app().services.queue.drain()
    const [failed] = await sql(`SELECT severity FROM audit_logs WHERE action = 'REFUND_FAILED' AND resource_id = :tid`, { tid: other.tid })
    expect(failed).to.deep.equal({ severity: 'HIGH' })
  })
})
