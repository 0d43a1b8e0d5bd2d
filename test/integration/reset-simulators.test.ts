import { expect } from 'chai'
import { adminClient } from '../helpers/http.ts'
import { rejection } from '../helpers/rejection.ts'
import { app, resetDb } from '../helpers/server.ts'

// Test files share one app: what a file leaves in the simulators' memory must not reach the next file, whose
// first step is resetDb. Each describe's before() plays the earlier file; its test is the next file's start.
describe('resetDb: the simulators as at start, whatever the file before left in them', () => {
  const simulator = () => app().services.delivery.vendors.simulator
  const send = (key: string) => simulator().vendor.send({} as Parameters<ReturnType<typeof simulator>['vendor']['send']>[0], key)

  describe('after a file that had an order delivered and left the delivery simulator confirming late, at once', () => {
    before(async () => {
      await resetDb()
      // Order 1 with no payment: the key the next file's order 1 has too, once the ids start again.
      expect(await send('datahub-1-order')).to.include({ status: 'DELIVERED' })
      app().services.delivery.simulatorControl({ mode: 'late', count: 3, lateMs: 0 })
    })

    it("the next file's order 1 is sent to the vendor, not answered from memory; the simulator's state is as at start", async () => {
      await resetDb()
      const admin = await adminClient()
      const res = await admin.get('/api/delivery/simulator')
      expect(res.body.simulator).to.deep.equal({ mode: 'deliver', remaining: 0, lateMs: 20_000, calls: 0, delivered: 0 })
      app().services.delivery.simulatorControl({ mode: 'fail', count: 1 })
      const err = await rejection(send('datahub-1-order'))
      expect(err.message).to.equal('Simulator: vendor answered 500 (simulated failure)')
    })
  })

  describe('after a file that left the transfers simulator failing the next payouts, with no delay', () => {
    before(async () => {
      await resetDb()
      app().services.payouts.simulatorControl({ mode: 'fail', count: 2, delayMs: 0 }, {})
    })

    it("the next file's payouts succeed after the configured delay", async () => {
      await resetDb()
      const admin = await adminClient()
      const res = await admin.get('/api/payouts/simulator')
      expect(res.body.simulator).to.deep.equal({ mode: 'succeed', remaining: 0, delayMs: 3000, sent: 0 })
    })
  })
})
