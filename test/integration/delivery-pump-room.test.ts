import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { deliveryWith, paidVisitorOrder } from '../helpers/delivery.ts'
import { app, resetDb } from '../helpers/server.ts'

// A pump lane ends with its first claim that has room (no empty claim after it), so that claim is also
// where a dead process's claims are taken back: with orders waiting all the time, they would otherwise
// wait for the stale sweep.

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

/** The order claimed a minute ago by a pump of a process that is gone, before its vendor call. */
const claimedByTheDead = (id: number) =>
  q(
    `UPDATE orders SET delivery_status = 'PROCESSING', delivery_attempts = 1, updated_at = now() - interval '1 minute', delivery_claim = 'pool-gone'
     WHERE id = :id RETURNING id`,
    { id }
  )

const statusOf = async (id: number) =>
  (await q<{ delivery_status: string; delivery_attempts: number }>('SELECT delivery_status, delivery_attempts FROM orders WHERE id = :id', { id }))[0]

describe('delivery pump: a claim with room takes back a dead process claims', () => {
  beforeEach(resetDb)

  it('a claim that finds fewer waiting orders than its batch also takes back an abandoned claim, each delivered once', async () => {
    const gone = await paidVisitorOrder('0201120001')
    const waiting = await paidVisitorOrder('0201120002')
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
    const gone = await paidVisitorOrder('0201120003')
    const waiting = await paidVisitorOrder('0201120004')
    await claimedByTheDead(gone)
    const pump = deliveryWith({ DELIVERY_BATCH_MAX: 1 })
    expect(await pump.pump('pool-here')).to.equal(1)
    expect(await statusOf(waiting)).to.include({ delivery_status: 'DELIVERED' })
    expect(await statusOf(gone)).to.include({ delivery_status: 'PROCESSING', delivery_attempts: 1 })
  })
})
