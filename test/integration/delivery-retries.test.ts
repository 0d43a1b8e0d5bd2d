import { expect } from 'chai'
import { createDeliveryService } from '../../server/services/delivery/index.ts'
import { createDomainEvents } from '../../server/services/events/index.ts'
import { adminClient, Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'
import { q, setSettings, drain, buyAndPay, orderOf, deliveryJobs, audits } from '../helpers/delivery-steps.ts'

// With the built-in simulator vendor (no vendor keys in the test app, no delay).

describe('delivery (simulator vendor)', () => {
  beforeEach(resetDb)

  it('vendor failing: retries up to the limit, then FAILED with the reason and one DELIVERY_FAILED; Retry delivery then delivers', async () => {
    await setSettings({ deliveryRetryLimit: 3 })
    app().services.delivery.simulatorControl({ mode: 'fail', count: 3 })
    const { id } = await buyAndPay()
    await drain()
    let o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'FAILED', delivered: false, delivery_attempts: 3 })
    expect(o.delivery_error).to.match(/simulated failure/)
    expect(await audits('DELIVERY_FAILED', id)).to.have.length(1)
    const admin = await adminClient()
    const overview = await admin.get('/api/delivery/overview')
    expect(overview.body.needsAttention).to.equal(1)
    const listed = await admin.get('/api/orders?deliveryStatus=FAILED')
    expect(listed.body.orders[0]).to.include({ id, deliveryStatus: 'FAILED', deliveryAttempts: 3 })
    expect(listed.body.orders[0].deliveryError).to.match(/simulated failure/)
    // Buyers see that it failed, not the vendor's words.
    const lookup = await new Client().get('/api/orders?phoneNumber=0201112222')
    expect((lookup.body.orders ?? lookup.body)[0].deliveryError).to.match(/^Delivery failed\./)

    const retry = await admin.post(`/api/orders/${id}/retry-delivery`)
    expect(retry.status).to.equal(200)
    expect(retry.body.order).to.include({ deliveryStatus: 'QUEUED', deliveryAttempts: 0 })
    // QUEUED with no attempt: the pump's, so no job besides (both would call the vendor).
    expect(await deliveryJobs()).to.deep.equal([])
    expect((await admin.post(`/api/orders/${id}/retry-delivery`)).status).to.equal(409)
    await drain()
    o = await orderOf(id)
    expect(o).to.include({ delivery_status: 'DELIVERED', delivered: true, delivery_error: null })
    expect((await admin.get('/api/delivery/overview')).body.needsAttention).to.equal(0)
  })

  it('backs off exponentially between attempts (DELIVERY_RETRY_BASE_MS, doubling)', async () => {
    const { services, db } = app()
    const slow = createDeliveryService({
      sequelize: db.sequelize,
      audit: services.audit,
      settings: services.settings,
      sms: services.sms,
      queue: services.queue,
      env: { ...testEnv(), DELIVERY_RETRY_BASE_MS: 60_000 },
      log: services.deps.log,
      events: createDomainEvents()
    })
    slow.simulatorControl({ mode: 'fail', count: 5 })
    const { id } = await buyAndPay()
    const runAt = async () => {
      const [j] = await q<{ run_at: Date }>(`SELECT run_at FROM graphile_worker.jobs WHERE key = :k`, { k: `delivery:${id}` })
      return (j!.run_at.getTime() - Date.now()) / 1000
    }
    await slow.runSend(id)
    expect(await runAt()).to.be.within(55, 61)
    await slow.runSend(id)
    expect(await runAt()).to.be.within(115, 121)
    await slow.runSend(id)
    expect(await runAt()).to.be.within(235, 241)
    expect(await orderOf(id)).to.include({ delivery_status: 'QUEUED', delivery_attempts: 3 })
  })

  it('confirm late: accepted with a reference, delivered when the vendor confirms (status check)', async () => {
    app().services.delivery.simulatorControl({ mode: 'late', count: 1, lateMs: 0 })
    const { id } = await buyAndPay()
    await app().services.delivery.runSend(id)
    let o = await orderOf(id)
    expect(o.delivery_status).to.equal('PROCESSING')
    expect(o.delivery_reference).to.match(/^SIM-/)
    await app().services.delivery.check(id)
    o = await orderOf(id)
    expect(o.delivery_status).to.equal('DELIVERED')
  })

  it('races: a double-clicked Retry delivery queues once; two confirmations give one ORDER_DELIVERED', async () => {
    app().services.delivery.simulatorControl({ mode: 'fail', count: 5 })
    await setSettings({ deliveryRetryLimit: 1 })
    const { id } = await buyAndPay()
    await drain()
    const admin = await adminClient()
    const [a, b] = await Promise.all([admin.post(`/api/orders/${id}/retry-delivery`), admin.post(`/api/orders/${id}/retry-delivery`)])
    expect([a.status, b.status].sort()).to.deep.equal([200, 409])
    expect(await audits('DELIVERY_RETRIED', id)).to.have.length(1)
    const set = app().services.delivery.setDeliveryStatus
    const results = await Promise.all([
      set(id, 'DELIVERED', { reference: 'X1' }),
      set(id, 'DELIVERED', { reference: 'X2' }),
      set(id, 'DELIVERED', { reference: 'X3' })
    ])
    expect(results.filter(Boolean)).to.have.length(1)
    expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
    const sms = await q<any>(`SELECT * FROM sms_outbox WHERE message LIKE '%has been delivered%'`)
    expect(sms).to.have.length(1)
  })
})
