import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { CATALOG_WARM, HOT_TABLES } from '../../models/warm-pool.ts'
import type { Running } from '../../server/index.ts'
import { bootInstance } from '../helpers/instance.ts'
import { app, resetDb } from '../helpers/server.ts'
import { createOrder } from '../helpers/factories.ts'

// A started instance opens its pool's connections itself, before any request or job needs one, so the first burst
// of paid orders after a start does not open them (a new backend each) while it runs.

interface PoolView {
  size: number
  minSize: number
  available: number
  _availableObjects: { resource: { processID: number } }[]
}
const poolOf = (r: Running) => (r.db.sequelize.connectionManager as unknown as { pool: PoolView }).pool

describe('the pool: connections opened at start', function () {
  this.timeout(60_000)
  let instance: Running | undefined

  beforeEach(resetDb)
  afterEach(async () => {
    await instance?.stop()
    instance = undefined
  })

  it('holds DB_POOL_MAX open connections, each a live backend, with no request or job having asked for them', async () => {
    instance = await bootInstance({ DB_POOL_MAX: 4, JOBS_ENABLED: false })
    const pool = poolOf(instance)
    // Opened in the background after listening.
    await instance.poolOpened
    expect(pool.size).to.equal(4)
    // Kept: an idle connection is not closed to be opened again, cold, by the next burst.
    expect(pool.minSize).to.equal(4)
    const pids = pool._availableObjects.map((o) => o.resource.processID)
    const [live] = await app().db.sequelize.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid IN (:pids)', {
      replacements: { pids },
      type: QueryTypes.SELECT
    })
    expect(live!.n).to.equal(4)
  })

  it("the catalog warm-up on each connection writes nothing: no transaction id, and the hot tables' rows as they were", async () => {
    await createOrder()
    const count = () =>
      app().db.sequelize.query<{ n: number }>(HOT_TABLES.map((t) => `SELECT count(*)::int AS n FROM ${t}`).join(' UNION ALL '), { type: QueryTypes.SELECT })
    const before = await count()
    const [xid] = await app().db.sequelize.transaction(async (t) => {
      await app().db.sequelize.query(CATALOG_WARM, { transaction: t })
      return app().db.sequelize.query<{ xid: string | null }>('SELECT pg_current_xact_id_if_assigned()::text AS xid', {
        transaction: t,
        type: QueryTypes.SELECT
      })
    })
    expect(xid!.xid).to.equal(null)
    expect(await count()).to.deep.equal(before)
  })
})
