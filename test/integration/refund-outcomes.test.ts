import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { paidSimulatorOrder } from '../helpers/simulator-order.ts'

// A payment with two refunds (the excess and the rest): each one's word moves only what is its own.
// And what a full refund leaves on a payment that has no paid order.
const sql = async <T extends object = Record<string, any>>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>
const refunds = () => app().services.payments.refunds
const paymentStatus = async (tid: string) => (await sql<{ status: string }>('SELECT status FROM payments WHERE transaction_id = :tid', { tid }))[0]!.status
const refundStatus = async (id: number) => (await sql<{ status: string }>('SELECT status FROM refunds WHERE id = :id', { id }))[0]!.status

/** An excess refund of 1 GHS beside the payment's full refund, in `status`, as an overpayment leaves one. */
async function excessRefund(tid: string, status: string, extRefundId: string | null = null) {
  const [r] = await sql<{ id: number }>(
    `INSERT INTO refunds (payment_id, transaction_id, kind, gateway, amount_pesewas, reason, status, ext_refund_id)
     SELECT id, transaction_id, 'excess', gateway, 100, 'Overpaid by GHS 1.00', :status, :ext FROM payments WHERE transaction_id = :tid RETURNING id`,
    { tid, status, ext: extRefundId }
  )
  return Number(r!.id)
}

describe('refund outcomes', () => {
  beforeEach(async () => {
    await resetDb()
    // Paid orders wait for the admin: an order the vendor may be delivering is never refunded.
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
  })

  it("the excess refund's final word leaves the payment's status to its full refund", async () => {
    const { tid } = await paidSimulatorOrder()
    const full = await refunds().refund(tid, 'Customer asked')
    const excess = await excessRefund(tid, 'SENT')
    expect(await refunds().finish(excess, 'FAILED', 'Refused')).to.equal(true)
    expect(await paymentStatus(tid)).to.equal('REFUND_PENDING')
    expect(await refunds().finish(full.id, 'PROCESSED', 'Done')).to.equal(true)
    expect(await paymentStatus(tid)).to.equal('REFUNDED')
    // A final word is taken once.
    expect(await refunds().finish(full.id, 'FAILED', 'Late')).to.equal(false)
    expect(await paymentStatus(tid)).to.equal('REFUNDED')
  })

  it("retrying a refused excess refund leaves a refused full refund's payment as it is", async () => {
    // The simulator refuses refunds to payers whose number ends in 0002.
    const { tid } = await paidSimulatorOrder('0241230002')
    await refunds().refund(tid, 'Customer asked')
    await app().services.queue.drain()
    expect(await paymentStatus(tid)).to.equal('REFUND_FAILED')
    const excess = await excessRefund(tid, 'FAILED')
    const admin = await adminClient()
    expect((await admin.post(`/api/admin/refunds/${excess}/retry`)).status).to.equal(200)
    expect(await refundStatus(excess)).to.equal('PENDING')
    expect(await paymentStatus(tid)).to.equal('REFUND_FAILED')
  })

  it("a gateway's refund event finishes the refund it names by its id there, leaves one still pending, and answers whether the reference is known", async () => {
    const { tid } = await paidSimulatorOrder()
    const excess = await excessRefund(tid, 'SENT', 'RF_EXCESS')
    const full = await refunds().refund(tid, 'Customer asked')
    await sql(`UPDATE refunds SET status = 'SENT', ext_refund_id = 'RF_FULL' WHERE id = :id RETURNING id`, { id: full.id })

    // Not final yet: nothing moves.
    expect(await refunds().onGatewayEvent(tid, 'pending', 'RF_EXCESS', 'Pending')).to.equal(true)
    expect(await sql('SELECT kind, status, ext_refund_id FROM refunds ORDER BY id')).to.deep.equal([
      { kind: 'excess', status: 'SENT', ext_refund_id: 'RF_EXCESS' },
      { kind: 'full', status: 'SENT', ext_refund_id: 'RF_FULL' }
    ])
    expect(await refunds().onGatewayEvent(tid, 'failed', 'RF_FULL', 'Refused by the bank')).to.equal(true)
    expect(await refundStatus(full.id)).to.equal('FAILED')
    expect(await refundStatus(excess)).to.equal('SENT')
    expect(await paymentStatus(tid)).to.equal('REFUND_FAILED')
    expect(await refunds().onGatewayEvent(tid, 'processed', 'RF_EXCESS', 'Done')).to.equal(true)
    expect(await refundStatus(excess)).to.equal('PROCESSED')
    expect(await paymentStatus(tid)).to.equal('REFUND_FAILED')

    // Every refund of the reference is final: known, nothing to do; an unknown reference is not known.
    expect(await refunds().onGatewayEvent(tid, 'processed', 'RF_FULL', 'Again')).to.equal(true)
    expect(await refundStatus(full.id)).to.equal('FAILED')
    expect(await refunds().onGatewayEvent('999999999', 'processed', 'RF_OTHER', 'Done')).to.equal(false)
  })

  it("a full refund of a payment whose order is not paid leaves the order's commission alone and names no reversal", async () => {
    const { id, tid } = await paidSimulatorOrder()
    const [before] = await sql<{ n: string }>('SELECT count(*) AS n FROM commissions WHERE order_id = :id', { id })
    await sql(`UPDATE orders SET payment_status = 'FAILED' WHERE id = :id RETURNING id`, { id })
    const r = await refunds().refund(tid, 'Paid for something already paid')
    const [issued] = await sql(`SELECT details FROM audit_logs WHERE action = 'REFUND_ISSUED' AND resource_id = :tid`, { tid })
    expect(issued!.details).to.deep.equal({
      refundId: r.id,
      transactionId: tid,
      kind: 'full',
      amount: 5,
      reason: 'Paid for something already paid',
      gateway: 'simulator',
      orderId: id
    })
    const [after] = await sql<{ n: string }>('SELECT count(*) AS n FROM commissions WHERE order_id = :id', { id })
    expect(after!.n).to.equal(before!.n)
  })

  it('a full refund of a payment with no order names no order in its audit entry', async () => {
    await sql(
      `INSERT INTO payments (transaction_id, purpose, gateway, method, status, amount_pesewas) VALUES ('555000222', 'wallet_topup', 'simulator', 'momo', 'SUCCESS', 2000) RETURNING id`
    )
    const r = await refunds().refund('555000222', 'Asked for the money back')
    const [issued] = await sql(`SELECT details FROM audit_logs WHERE action = 'REFUND_ISSUED' AND resource_id = '555000222'`)
    expect(issued!.details).to.deep.equal({
      refundId: r.id,
      transactionId: '555000222',
      kind: 'full',
      amount: 20,
      reason: 'Asked for the money back',
      gateway: 'simulator'
    })
    expect(await paymentStatus('555000222')).to.equal('REFUND_PENDING')
  })
})
