import { app } from './server.ts'

/** The test server's Sequelize pool: connections in use and open. */
export const pool = () => (app().db.sequelize.connectionManager as unknown as { pool: { using: number; size: number } }).pool

/**
 * Whether the pool comes back to no connection in use within `ms`: a background job may hold one for a moment, a
 * connection that was never returned holds it for good.
 */
export async function poolIdleWithin(ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (pool().using === 0) return true
  return pool().using === 0
}
