import { expect } from 'chai'
import pg from 'pg'
import { HOT_TABLES, warmCatalog } from '../../models/warm-pool.ts'
import { app, resetDb } from '../helpers/server.ts'

// Every new pool connection loads the hot tables' catalog. A TRUNCATE or a migration's ALTER locks the same tables one
// after another; if the warm-up held one table while it waited for the next, the two could deadlock and PostgreSQL
// would cancel one of them: the reset, or another instance's migration.

describe('the pool: the catalog warm-up holds no table while it waits for another', function () {
  this.timeout(30_000)
  const clients: pg.Client[] = []
  const client = async () => {
    const c = new pg.Client({ connectionString: app().db.url })
    await c.connect()
    clients.push(c)
    return c
  }

  beforeEach(resetDb)
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.end().catch(() => {})
  })

  it('waits on a locked table holding none of the others, so a locker taking them in another order goes through', async () => {
    const locker = await client()
    const warming = await client()
    const watcher = await client()
    const warmingPid = (warming as unknown as { processID: number }).processID
    // A locker that took a later table first, as a TRUNCATE listing the tables in its own order does.
    const later = HOT_TABLES[3]!
    await locker.query('BEGIN')
    await locker.query(`LOCK TABLE ${later} IN ACCESS EXCLUSIVE MODE`)

    const warmed = warmCatalog(warming).then(
      () => null,
      (err: Error) => err
    )
    for (let i = 0; i < 200; i++) {
      const { rows } = await watcher.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [warmingPid])
      if (rows[0]?.wait_event_type === 'Lock') break
      await new Promise((r) => setTimeout(r, 10))
    }
    const { rows: held } = await watcher.query(
      `SELECT c.relname AS name FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
        WHERE l.pid = $1 AND l.granted AND c.relkind = 'r' AND c.relname = ANY($2) ORDER BY 1`,
      [warmingPid, HOT_TABLES]
    )
    expect(held.map((r) => r.name)).to.deep.equal([])

    // The locker now takes the first table too: nothing of the warm-up's stands in its way, no deadlock to break.
    await locker.query(`LOCK TABLE ${HOT_TABLES[0]} IN ACCESS EXCLUSIVE MODE`)
    await locker.query('ROLLBACK')
    expect(await warmed).to.equal(null)
  })
})
