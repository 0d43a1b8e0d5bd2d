import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createAgent, createOrder } from '../helpers/factories.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { q, mtn1gb, drain, buyAndPay, orderOf } from '../helpers/delivery-steps.ts'

// With the built-in simulator vendor (no vendor keys in the test app, no delay).

describe('delivery (simulator vendor)', () => {
  beforeEach(resetDb)

  it("hooks run in each change of their scope only: an agent's order is claimed with its hooks even when its job does not say it is an agent's; a customer's claim runs none", async () => {
    // A hook for agents' orders, like the agent webhooks: it must see the claim (PROCESSING) of every
    // agent order in that claim's transaction, whichever way the claim goes (one-statement claim).
    const seen: { id: number; to: string; inTransaction: boolean }[] = []
    // Ended at the test's end, failed or not: the bus lives as long as the app, which the later files share.
    const stop = app().services.events.on(
      'delivery.changed',
      async ({ order, to }, { transaction: t }) => {
        const [row] = await app().db.sequelize.query<{ x: string }>('SELECT pg_current_xact_id_if_assigned()::text AS x', {
          type: QueryTypes.SELECT,
          transaction: t
        })
        seen.push({ id: order.id, to, inTransaction: !!row?.x })
      },
      { agentOrdersOnly: true }
    )
    try {
      const a = await createAgent()
      const c = new Client()
      expect((await c.login(a.user.email, a.password)).status).to.equal(200)
      const placed = await c.post('/api/orders', { packageId: await mtn1gb(), recipientNumber: '0209998888', payerPhone: '0241234567', payerNetwork: 'MTN' })
      await new Client().post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)
      const agentOrder = placed.body.order.id as number
      // The job as the settlement wrote it says it is an agent's; drop that hint, as a job queued by the
      // sweep or a retry would not have it: the claim must still run the hook.
      await q(`UPDATE graphile_worker._private_jobs SET payload = json_build_object('orderId', :id) WHERE key = :k RETURNING id`, {
        id: agentOrder,
        k: `delivery:${agentOrder}`
      })
      const { id: customerOrder } = await buyAndPay()
      await drain()
      expect((await orderOf(agentOrder)).delivery_status).to.equal('DELIVERED')
      expect((await orderOf(customerOrder)).delivery_status).to.equal('DELIVERED')
      expect(seen.filter((s) => s.id === agentOrder).map((s) => s.to)).to.deep.equal(['QUEUED', 'PROCESSING', 'DELIVERED'])
      expect(seen.every((s) => s.inTransaction)).to.equal(true)
      expect(seen.filter((s) => s.id === customerOrder)).to.deep.equal([])
    } finally {
      stop()
    }
  })

  it('unpaid orders are never delivered, nor retried', async () => {
    const o = await createOrder({ paymentStatus: 'PENDING' })
    const admin = await adminClient()
    expect((await admin.post(`/api/orders/${o.id}/retry-delivery`)).status).to.equal(409)
    expect(await app().services.delivery.setDeliveryStatus(o.id as number, 'QUEUED')).to.equal(null)
  })
})
