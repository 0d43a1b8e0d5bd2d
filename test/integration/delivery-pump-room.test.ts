import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { createDeliveryService } from '../../server/services/delivery/index.ts'
import { createDomainEvents } from '../../server/services/events/index.ts'
import { Client } from '../helpers/http.ts'
import { app, resetDb, testEnv } from '../helpers/server.ts'

// A pump lane ends with its first claim that has room (no empty claim after it), so that claim is also
// where a dead process's claims are taken back: with orders waiting all the time, they would otherwise
// wait for the stale sweep.

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })
const mtn1gb = async () => (await app().db.models.Package.findOne({ where: { network: 'MTN', sizeMb: 1024 } }))!.get('id') as number

/** A visitor buys 1GB MTN and approves on the simulator phone: the order is QUEUED for the pump. */
async function paidOrder(recipientNumber: string): Promise<number> {
  const placed = await new Client().post('/api/orders', { packageId: await mtn1gb(), recipientNumber, payerPhone: '0241234567', payerNetwork: 'MTN' })
  expect(placed.status).to.equal(201)
  expect((await new Client().post(`/api/simulator/payments/${placed.body.payment.transactionId}/approve`)).status).to.equal(200)
  return placed.body.order.id as number
}

/** The order claimed a minute ago by a pump of a process that is gone, before its vendor call. */
const claimedByTheDead = (id: number) =>
  q(
    `UPDATE orders SET delivery_status = 'PROCESSING', delivery_attempts = 1, updated_at = now() - interval '1 minute', delivery_claim = 'pool-gone'
     WHERE id = :id RETURNING id`,
    { id }
  )

const statusOf = async (id: number) =>
  (await q<{ delivery_status: string; delivery_attempts: number }>('SELECT delivery_status, delivery_attempts FROM orders WHERE id = :id', { id }))[0]

/** A delivery service of its own (its own simulator, its own clock for the abandoned check). */
const deliveryWith = (env: Partial<ReturnType<typeof testEnv>>) => {
  const { services, db } = app()
  return createDeliveryService({
    sequelize: db.sequelize,
    audit: services.audit,
    settings: services.settings,
    sms: services.sms,
    queue: services.queue,
    env: { ...testEnv(), ...env },
    log: services.deps.log,
    events: createDomainEvents()
  })
}

describe('delivery pump: a claim with room takes back a dead process claims', () => {
  beforeEach(resetDb)

  it('a claim that finds fewer waiting orders than its batch also takes back an abandoned claim, each delivered once', async () => {
    const gone = await paidOrder('0201120001')
    const waiting = await paidOrder('0201120002')
    await claimedByTheDead(gone)
    const pump = deliveryWith({})
    expect(await pump.pump('pool-here')).to.equal(2)
    expect(pump.simulatorState().calls).to.equal(2)
    expect(await statusOf(gone)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 2 })
    expect(await statusOf(waiting)).to.include({ delivery_status: 'DELIVERED', delivery_attempts: 1 })
    const audits = await q<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE action = 'ORDER_DELIVERED' AND resource_id IN (:ids)`, {
      ids: [String(gone), String(waiting)]
    })
    expect(Number(audits[0]!.n)).to.equal(2)
  })

  it('a full claim leaves the abandoned claim to a later one', async () => {
    const gone = await paidOrder('0201120003')
    const waiting = await paidOrder('0201120004')
    await claimedByTheDead(gone)
    const pump = deliveryWith({ DELIVERY_BATCH_MAX: 1 })
    expect(await pump.pump('pool-here')).to.equal(1)
    expect(await statusOf(waiting)).to.include({ delivery_status: 'DELIVERED' })
    expect(await statusOf(gone)).to.include({ delivery_status: 'PROCESSING', delivery_attempts: 1 })
  })
})
