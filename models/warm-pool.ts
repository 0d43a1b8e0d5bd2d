import type { Sequelize } from 'sequelize'
import type { Logger } from 'pino'

interface PgClient {
  query(text: string): Promise<unknown>
}

interface Pool {
  getConnection(o: { type: string }): Promise<PgClient>
  releaseConnection(c: PgClient): Promise<void> | void
}

/**
 * The tables a paid order's settlement, delivery, entries and texts read and write. A backend loads a table's catalog
 * entries (columns, indexes, triggers, constraints) the first time a statement names it: on a connection opened
 * during a burst, that load falls on the burst's first orders.
 */
export const HOT_TABLES = ['settings', 'payments', 'orders', 'agents', 'audit_logs', 'sms_outbox']

/**
 * Planned, never run: the planner opens each table and its indexes (the catalog load) and finds WHERE false. Reads
 * nothing, writes nothing, takes no lock a writer waits for (ACCESS SHARE, released at once: autocommit).
 */
export const CATALOG_WARM = `SELECT 1 FROM ${HOT_TABLES.join(', ')} WHERE false`

/**
 * Opens the pool's connections now instead of during the first burst of work after a start (each new connection is
 * a new PostgreSQL backend: a fork, authentication, Sequelize's session settings, empty catalog caches), and loads
 * the hot tables' catalog entries on each. The pool's `min` keeps them open. Read-only; a failure (the database
 * restarting) only leaves the pool to open connections on demand, as before.
 */
export async function openPoolConnections(sequelize: Sequelize, log?: Logger): Promise<number> {
  const pool = sequelize.connectionManager as unknown as Pool
  const want = (sequelize as unknown as { options: { pool?: { min?: number } } }).options.pool?.min ?? 0
  const opened = await Promise.allSettled(
    Array.from({ length: want }, async () => {
      const client = await pool.getConnection({ type: 'write' })
      try {
        await client.query(CATALOG_WARM)
      } finally {
        await pool.releaseConnection(client)
      }
    })
  )
  const failed = opened.filter((o) => o.status === 'rejected')
  if (failed.length)
    log?.warn(
      { err: { message: ((failed[0] as PromiseRejectedResult).reason as Error)?.message }, failed: failed.length },
      'could not open every pool connection at start'
    )
  return want - failed.length
}
