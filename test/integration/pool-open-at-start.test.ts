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

  it('the catalog warm-up opens every hot table and index and writes nothing: no transaction id, the rows as they were', async () => {
    await createOrder()
    const db = app().db.sequelize
    const count = () => db.query<{ n: number }>(HOT_TABLES.map((t) => `SELECT count(*)::int AS n FROM ${t}`).join(' UNION ALL '), { type: QueryTypes.SELECT })
    const before = await count()
    const [xid, unopened] = await db.transaction(async (t) => {
      for (const sql of CATALOG_WARM) await db.query(sql, { transaction: t })
      const [x] = await db.query<{ xid: string | null }>('SELECT pg_current_xact_id_if_assigned()::text AS xid', { transaction: t, type: QueryTypes.SELECT })
      // The planner opened every hot table and each of its indexes (their catalog entries loaded): each holds this
      // transaction's ACCESS SHARE lock until its end.
      const missing = await db.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c LEFT JOIN pg_index i ON i.indexrelid = c.oid
          WHERE c.relnamespace = 'public'::regnamespace
            AND ((c.relname IN (:tables) AND c.relkind = 'r') OR i.indrelid IN (SELECT oid FROM pg_class WHERE relname IN (:tables) AND relkind = 'r'))
            AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.relation = c.oid AND l.pid = pg_backend_pid() AND l.mode = 'AccessShareLock')`,
        { transaction: t, replacements: { tables: HOT_TABLES }, type: QueryTypes.SELECT }
      )
      return [x!, missing] as const
    })
    expect(xid.xid).to.equal(null)
    expect(unopened).to.deep.equal([])
    expect(await count()).to.deep.equal(before)
  })
})
