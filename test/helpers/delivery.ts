import { expect } from 'chai'
import type { Sequelize } from 'sequelize'
import { createDeliveryService } from '../../server/services/delivery/index.ts'
import { createDomainEvents } from '../../server/services/events/index.ts'
import { Client } from './http.ts'
import { app, testEnv } from './server.ts'

/**
 * A delivery service of its own over the test app's services (its own simulator, gather and clock), with these env
 * values; another instance's connections (`sequelize`) and event bus (`events`) when given.
 */
export const deliveryWith = (env: Partial<ReturnType<typeof testEnv>>, own: { sequelize?: Sequelize; events?: ReturnType<typeof createDomainEvents> } = {}) => {
  const { services, db } = app()
  return createDeliveryService({
    sequelize: own.sequelize ?? db.sequelize,
    audit: services.audit,
    settings: services.settings,
    sms: services.sms,
    queue: services.queue,
    env: { ...testEnv(), ...env },
    log: services.deps.log,
    events: own.events ?? createDomainEvents()
  })
}

const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number

/** A visitor buys 1GB MTN and approves on the simulator phone: the order is QUEUED for the pump, its text handed over. */
export async function paidVisitorOrder(recipientNumber: string): Promise<number> {
  const placed = await new Client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(placed.status).to.equal(201)
  expect((await new Client().post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)).status).to.equal(200)
  return placed.body.order.id as number
}
