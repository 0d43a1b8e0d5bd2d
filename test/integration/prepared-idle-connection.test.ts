import { expect } from 'chai'
import { QueryTypes } from 'sequelize'
import { preparedFor } from '../../models/prepared.ts'
import { app, resetDb } from '../helpers/server.ts'

/**
 * A named statement outside a transaction takes an idle connection of Sequelize's pool as the pool's own acquire
 * would, without going through `getConnection` (ADR 0096): counted in use while it runs, given back after; when no
 * connection is idle it acquires as before, behind the acquires already waiting.
 */
interface PgConn {
  query(text: string): Promise<unknown>
}
interface Manager {
  getConnection(o: { type: string }): Promise<PgConn>
  releaseConnection(c: PgConn): void
  pool: { using: number; available: number; maxSize: number }
}

const sql = <T extends object>(text: string) => app().db.sequelize.query<T>(text, { type: QueryTypes.SELECT }) as Promise<T[]>
const LOCK = 466_001

/** Until a backend waits on this advisory lock (a statement blocked on it). */
async function someoneWaits(): Promise<void> {
  for (let i = 0; i < 400; i++) {
    const [w] = await sql<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = ${LOCK}`)
    if (Number(w!.n) > 0) return
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error('no statement came to wait on the lock')
}

describe('a named statement takes an idle pooled connection without the pool acquire (ADR 0096)', function () {
  this.timeout(30_000)
  const manager = () => app().db.sequelize.connectionManager as unknown as Manager
  let acquires = 0
  let original: Manager['getConnection']
  beforeEach(async () => {
    await resetDb()
    const m = manager()
    original = m.getConnection
    acquires = 0
    m.getConnection = function (o) {
      acquires++
      return original.call(this, o)
    }
  })
  afterEach(() => {
    manager().getConnection = original
  })

  it('an idle connection: no acquire, counted in use while the statement runs, given back after', async () => {
    const m = manager()
    // Two connections idle: one for the test's lock, one for the statement.
    await Promise.all([sql('SELECT 1 AS one'), sql('SELECT 1 AS one')])
    const locker = await original.call(m, { type: 'write' })
    acquires = 0
    try {
      await locker.query(`SELECT pg_advisory_lock(${LOCK})`)
      const using = m.pool.using
      const done = preparedFor(app().db.sequelize)<{ got: number }>('SELECT 1 AS got FROM (SELECT pg_advisory_xact_lock($1::bigint)) AS l', [LOCK])
      // The statement took its connection as it was called (the test's own reads below acquire theirs).
      expect(acquires, 'getConnection calls').to.equal(0)
      await someoneWaits()
      expect(m.pool.using).to.equal(using + 1)
      await locker.query(`SELECT pg_advisory_unlock(${LOCK})`)
      expect(await done).to.deep.equal([{ got: 1 }])
      expect(m.pool.using).to.equal(using)
    } finally {
      m.releaseConnection(locker)
    }
  })

  it('no idle connection: acquired as before, after an acquire that was waiting first', async () => {
    const m = manager()
    const held: PgConn[] = []
    for (let i = 0; i < m.pool.maxSize; i++) held.push(await original.call(m, { type: 'write' }))
    acquires = 0
    const order: string[] = []
    const waiter = m.getConnection({ type: 'write' }).then((c) => {
      order.push('waiter')
      return c
    })
    const statement = preparedFor(app().db.sequelize)<{ one: number }>('SELECT $1::int AS one', [1]).then((rows) => {
      order.push('statement')
      return rows
    })
    m.releaseConnection(held.pop()!)
    const first = await waiter
    expect(order).to.deep.equal(['waiter'])
    m.releaseConnection(first)
    expect(await statement).to.deep.equal([{ one: 1 }])
    expect(order).to.deep.equal(['waiter', 'statement'])
    expect(acquires, 'getConnection calls').to.equal(2)
    for (const c of held) m.releaseConnection(c)
  })
})
