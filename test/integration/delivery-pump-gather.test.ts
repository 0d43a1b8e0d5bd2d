import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { deliveryWith, paidVisitorOrder } from '../helpers/delivery.ts'
import { app, resetDb } from '../helpers/server.ts'

// The delivery pump's gather: a claim that comes soon after another claim of the same process waits for
// the rest of DELIVERY_GATHER_MS, so the orders paid meanwhile go in one claim. Counts claims and orders.

const q = <T extends object>(sql: string, replacements: Record<string, unknown> = {}) =>
  app().db.sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT })

const statuses = async (ids: number[]) =>
  (await q<{ delivery_status: string }>('SELECT delivery_status FROM orders WHERE id IN (:ids) ORDER BY id', { ids })).map((o) => o.delivery_status)

describe('delivery pump: orders paid soon after a claim wait for the gather and go in one claim', function () {
  this.timeout(30_000)
  beforeEach(resetDb)

  it('a run right after a claim waits for the gather, then claims the orders paid meanwhile together, each delivered once', async () => {
    // A gather long enough for two orders to be placed and paid over HTTP inside it.
    const pump = deliveryWith({ DELIVERY_GATHER_MS: 1500 })
    const first = await paidVisitorOrder('0201130001')
    // The process's first claim: at once.
    expect(await pump.pump('pool-here')).to.equal(1)
    // Woken again at once (the next wake): it waits, and the orders paid meanwhile join its claim.
    const run = pump.pump('pool-here')
    const later = [await paidVisitorOrder('0201130002'), await paidVisitorOrder('0201130003')]
    expect(await statuses(later)).to.deep.equal(['QUEUED', 'QUEUED'])
    expect(await run).to.equal(2)
    expect(await statuses([first, ...later])).to.deep.equal(['DELIVERED', 'DELIVERED', 'DELIVERED'])
    expect(pump.simulatorState().calls).to.equal(3)
    const audits = await q<{ n: string }>(`SELECT count(*) AS n FROM audit_logs WHERE action = 'ORDER_DELIVERED'`)
    expect(Number(audits[0]!.n)).to.equal(3)
  })

  it('drain (no pool) never waits for the gather', async () => {
    const pump = deliveryWith({ DELIVERY_GATHER_MS: 1500 })
    await paidVisitorOrder('0201130004')
    expect(await pump.pump('pool-here')).to.equal(1)
    const second = await paidVisitorOrder('0201130005')
    // Run as `drain` runs it: it claims what waits now, though a claim of this process was just made.
    const run = pump.pump(null)
    const third = await paidVisitorOrder('0201130006')
    expect(await run).to.equal(1)
    expect(await statuses([second, third])).to.deep.equal(['DELIVERED', 'QUEUED'])
  })
})
