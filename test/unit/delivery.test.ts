import { expect } from 'chai'
import { createHmac } from 'node:crypto'
import { ALLOWED_FROM } from '../../server/services/delivery/state.ts'
import { idempotencyKeyFor } from '../../server/services/delivery/vendor.ts'
import { capacityOf, skytechSignature } from '../../server/services/delivery/vendors/skytech.ts'
import { createSimulatorVendor } from '../../server/services/delivery/vendors/simulator.ts'

describe('delivery (unit)', () => {
  it('the idempotency key depends on the order alone', () => {
    const o = { id: 42, payment_transaction_id: '123456789012' }
    expect(idempotencyKeyFor(o)).to.equal('datahub-42-123456789012')
    expect(idempotencyKeyFor({ ...o })).to.equal(idempotencyKeyFor(o))
  })

  it('status changes: delivered orders never go back to the queue; MANUAL wins over anything in flight', () => {
    expect(ALLOWED_FROM.QUEUED).to.not.include('DELIVERED')
    expect(ALLOWED_FROM.QUEUED).to.not.include('MANUAL')
    expect(ALLOWED_FROM.PROCESSING).to.deep.equal(['QUEUED', 'PROCESSING'])
    expect(ALLOWED_FROM.DELIVERED).to.not.include('FAILED')
    expect(ALLOWED_FROM.MANUAL).to.include.members(['NOT_STARTED', 'QUEUED', 'PROCESSING', 'FAILED'])
  })

  it('SkyTech signature is HMAC-SHA256 over ts, method, path and body; capacity in GB', () => {
    const sig = skytechSignature('s3cret', '1700000000', 'POST', '/api/v1/orders', '{"a":1}')
    expect(sig).to.equal(createHmac('sha256', 's3cret').update('1700000000\nPOST\n/api/v1/orders\n{"a":1}').digest('hex'))
    expect(capacityOf(1024)).to.equal(1)
    expect(capacityOf(10240)).to.equal(10)
    expect(capacityOf(512)).to.equal(0.5)
  })

  it('the simulator is idempotent per key and obeys its control', async () => {
    const sim = createSimulatorVendor({ delayMs: 0, timeoutMs: 100 })
    const order = { id: 1, network: 'MTN', recipientNumber: '0241234567', dataSizeMb: 1024 }
    const a = await sim.vendor.send(order, 'k1')
    const b = await sim.vendor.send(order, 'k1')
    expect(b.reference).to.equal(a.reference)
    expect(sim.state().delivered).to.equal(1)
    sim.control({ mode: 'fail', count: 1 })
    let err: unknown
    await sim.vendor.send(order, 'k2').catch((e) => (err = e))
    expect((err as { retryable: boolean }).retryable).to.equal(true)
    expect((await sim.vendor.send(order, 'k2')).status).to.equal('DELIVERED')
  })
})
