import type { Sequelize } from 'sequelize'
import type { Logger } from 'pino'

interface PgClient {
  query(text: string): Promise<unknown>
}

interface Pool {
  getConnection(o: { type: string }): Promise<PgClient>
  releaseConnection(c: PgClient): Promise<void> | void
  pool: { minSize: number; size: number; available: number; using: number }
}

/**
 * The tables a paid order's settlement, delivery, entries and texts read and write. A backend loads a table's catalog
 * entries (columns, indexes, triggers, constraints) the first time a statement names it: on a connection opened
 * during a burst, that load falls on the burst's first orders.
 */
export const HOT_TABLES = ['settings', 'payments', 'orders', 'agents', 'audit_logs', 'sms_outbox']

/**
 * Planned, never run: the planner opens each table and its indexes (the catalog load) and finds WHERE false. Reads
 * nothing, writes nothing, takes no lock a writer waits for (ACCESS SHARE, released at once: autocommit). One statement
 * per table: a statement naming several holds the first tables' locks while it waits for a later one's, and a TRUNCATE
 * or ALTER taking the same tables in another order (a migration on another instance, a test's reset) then deadlocks
 * with it; PostgreSQL may cancel either side.
 */
export const CATALOG_WARM = HOT_TABLES.map((t) => `SELECT 1 FROM ${t} WHERE false`)

/** The hot tables' catalog loaded on one connection, a table at a time. */
export async function warmCatalog(connection: PgClient): Promise<void> {
  for (const sql of CATALOG_WARM) await connection.query(sql)
}

/**
 * Opens the pool's connections now instead of during the first burst of work after a start (each new connection is
 * a new PostgreSQL backend: a fork, authentication, Sequelize's session settings, empty catalog caches), and loads
 * the hot tables' catalog entries on each. The pool's `min` keeps them open. Read-only; a failure (the database
 * restarting) only leaves the pool to open connections on demand, as before.
 *
 * The load runs as each connection is made (Sequelize's `afterConnect`, before the pool lends it), not on the
 * connections this asks for: one of those handed back early is lent again to a later ask, whose own new connection
 * then joins the pool unwarmed. Holding every connection until all are made would instead stall a request that
 * needs two. So the connections opened later, after an outage too, are warmed as well. Settles when the pool holds
 * its `min` connections, or after a few seconds.
 */
export async function openPoolConnections(sequelize: Sequelize, log?: Logger): Promise<number> {
  sequelize.addHook('afterConnect', 'catalogWarm', async (connection: unknown) => {
    await warmCatalog(connection as PgClient).catch(() => {})
  })
  const manager = sequelize.connectionManager as unknown as Pool
  const pool = manager.pool
  const want = pool.minSize
  const asked = await Promise.allSettled(Array.from({ length: want }, async () => manager.releaseConnection(await manager.getConnection({ type: 'write' }))))
  const failed = asked.filter((o) => o.status === 'rejected')
  if (failed.length)
    log?.warn(
      { err: { message: ((failed[0] as PromiseRejectedResult).reason as Error)?.message }, failed: failed.length },
      'could not open every pool connection at start'
    )
  // The connections made for asks served by one handed back are still being made: they join the pool when ready.
  for (let waited = 0; pool.size - pool.available - pool.using > 0 && waited < 5_000; waited += 20) {
    await new Promise((r) => setTimeout(r, 20))
  }
  return pool.available + pool.using
}
