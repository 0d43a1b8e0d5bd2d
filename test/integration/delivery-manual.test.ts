import { expect } from 'chai'
import { adminClient } from '../helpers/http.ts'
import { app, resetDb } from '../helpers/server.ts'
import { q, setSettings, drain, buyAndPay, orderOf, audits } from '../helpers/delivery-steps.ts'

// With the built-in simulator vendor (no vendor keys in the test app, no delay).

describe('delivery (simulator vendor)', () => {
  beforeEach(resetDb)

  it('manual mode: no vendor call, the order stays NOT_STARTED and the export takes it as before', async () => {
    await setSettings({ deliveryMode: 'manual' })
    const before = app().services.delivery.simulatorState().calls
    const { id } = await buyAndPay()
    await drain()
    expect(app().services.delivery.simulatorState().calls).to.equal(before)
    expect(await orderOf(id)).to.include({ delivery_status: 'NOT_STARTED', delivered: false })
    // No delivery job to carry it: the order-created text had its own.
    expect((await q<any>(`SELECT status FROM sms_outbox`)).map((m) => m.status)).to.deep.equal(['SENT'])
    const admin = await adminClient()
    const csv = await admin.post('/api/orders/export')
    expect(csv.status).to.equal(200)
    expect(csv.text.trim().split('\r\n')).to.have.length(2) // header and the one order
    expect(await orderOf(id)).to.include({ delivery_status: 'MANUAL', delivered: true, exported: true })
  })

  it('the export leaves orders being delivered automatically alone; Mark delivered sets MANUAL once', async () => {
    const { id } = await buyAndPay() // QUEUED, not yet run
    const admin = await adminClient()
    expect((await admin.post('/api/orders/export')).status).to.equal(404)
    const marked = await admin.patch(`/api/orders/${id}/delivered`)
    expect(marked.status).to.equal(200)
    expect(marked.body.order).to.include({ delivered: true, deliveryStatus: 'MANUAL' })
    await drain() // the queued job finds it delivered by hand: no vendor call
    expect(await orderOf(id)).to.include({ delivery_status: 'MANUAL', delivery_attempts: 0 })
    expect(await audits('ORDER_DELIVERED', id)).to.have.length(1)
  })
})
