import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { paidSimulatorOrder } from '../helpers/simulator-order.ts'

// What a refund writes down beside the money: the gateway's id for it, learnt from a pending event,
// and the commission its audit entry says was taken back when the order earned none.
const sql = async <T extends object = Record<string, any>>(text: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT }) as Promise<T[]>

describe('what a refund records', () => {
  beforeEach(async () => {
    await resetDb()
    // Paid orders wait for the admin: an order the vendor may be delivering is never refunded.
    await app().services.settings.update({ deliveryMode: 'manual' }, {})
  })

  it("a gateway's pending event for a refund sent without an id there notes that id, and its final word finds the refund by it", async () => {
    const { tid } = await paidSimulatorOrder()
    const r = await app().services.payments.refunds.refund(tid, 'Customer asked')
    await sql(`UPDATE refunds SET status = 'SENT' WHERE id = :id RETURNING id`, { id: r.id })
    expect(await app().services.payments.refunds.onGatewayEvent(tid, 'pending', 'RF_LATER', 'Pending')).to.equal(true)
    expect(await sql('SELECT status, ext_refund_id FROM refunds')).to.deep.equal([{ status: 'SENT', ext_refund_id: 'RF_LATER' }])
    expect(await app().services.payments.refunds.onGatewayEvent(tid, 'processed', 'RF_LATER', 'Done')).to.equal(true)
    expect(await sql('SELECT status, ext_refund_id FROM refunds')).to.deep.equal([{ status: 'PROCESSED', ext_refund_id: 'RF_LATER' }])
  })

  it('the refund of a paid order that earned no commission says 0 was taken back', async () => {
    const { id, tid } = await paidSimulatorOrder()
    await sql('DELETE FROM commissions WHERE order_id = :id RETURNING id', { id })
    const res = await (await adminClient()).post(`/api/admin/orders/${id}/refund`, { reason: 'Customer asked' })
    expect(res.status, res.text).to.equal(201)
    const [issued] = await sql(`SELECT details FROM audit_logs WHERE action = 'REFUND_ISSUED' AND resource_id = :tid`, { tid })
    expect(issued!.details).to.include({ orderId: id, commissionReversed: 0 })
  })
})
