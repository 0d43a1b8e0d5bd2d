import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { adminClient } from '../helpers/http.ts'
import { resellerWithKey } from '../helpers/reseller.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * A wallet order's answer is the orders_view row its own statement returns, built from the order it wrote (ADR 0079),
 * not a read of the view after it: the same columns in the same order with the same values and types as the view
 * gives for that order, so the reseller API's answer and the portal's stay as they were.
 */
const viewRow = async (id: number) => {
  const [row] = await app().db.sequelize.query<Record<string, unknown>>('SELECT * FROM orders_view WHERE id = :id', {
    replacements: { id },
    type: QueryTypes.SELECT
  })
  return row!
}

describe("a wallet order's answer: orders_view's row as the order's statement wrote it (ADR 0079)", function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  for (const deliveryMode of ['manual', 'auto']) {
    it(`column for column the view's row, with delivery ${deliveryMode}`, async () => {
      const { pkg, a } = await resellerWithKey(20, 'Row')
      if (deliveryMode === 'manual') expect((await (await adminClient()).put('/api/settings', { deliveryMode })).status).to.equal(200)
      const actor = (await app().services.auth.loadActor(a.user.id))!
      const placed = await app().services.orders.placeOrder(
        { packageId: pkg.id, recipientNumber: '0241112211', payFrom: 'wallet', channel: 'api' },
        { user: actor }
      )
      const row = placed.row!
      const view = await viewRow(row.id)
      // The delivery pump may have claimed an automatic order since: its claim's columns are the pump's, not the answer's.
      const claimed = view.delivery_status !== row.delivery_status
      const unclaimed = claimed ? { ...view, delivery_status: row.delivery_status, delivery_claim: row.delivery_claim, updated_at: row.updated_at } : view
      expect(Object.keys(row)).to.deep.equal(Object.keys(view))
      expect(row).to.deep.equal(unclaimed)
      for (const key of Object.keys(row)) expect(typeof row[key], key).to.equal(typeof view[key])
      expect(row).to.include({
        payment_status: 'SUCCESS',
        delivery_status: deliveryMode === 'manual' ? 'NOT_STARTED' : 'QUEUED',
        exported: false,
        exported_at: null
      })
    })
  }

  it("over the reseller API the answer reads as the order's own GET does", async () => {
    const { pkg, api } = await resellerWithKey(20, 'Row')
    expect((await (await adminClient()).put('/api/settings', { deliveryMode: 'manual' })).status).to.equal(200)
    const out = await api.post('/api/v1/orders', { packageId: pkg.id, recipientNumber: '0241112211' }, { 'Idempotency-Key': 'row-1' })
    expect(out.status, out.text).to.equal(201)
    const again = await api.get(`/api/v1/orders/${out.body.order.id}`)
    expect(again.status, again.text).to.equal(200)
    expect(JSON.stringify(out.body.order)).to.equal(JSON.stringify(again.body.order))
  })
})
