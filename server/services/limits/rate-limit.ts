import { QueryTypes, type Sequelize } from 'sequelize'
import { NO_FLUSH_WAIT } from '../../../models/prepared.ts'

/**
 * Counts one hit in `key`'s fixed window of `windowSeconds` (a window that has ended starts again at
 * one): the count so far and the whole seconds until the window ends (at least 1).
 */
export async function hitWindow(sequelize: Sequelize, key: string, windowSeconds: number): Promise<{ count: number; resetSeconds: number }> {
  const [row] = await sequelize.query<{ count: number; reset: number }>(
    // A counter, not money: it need not wait for the WAL flush (ADR 0046, as the request limits).
    `INSERT INTO rate_limits (key, count, window_start) SELECT :key, 1, now() FROM ${NO_FLUSH_WAIT}
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => :w) THEN 1 ELSE rate_limits.count + 1 END,
       window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => :w) THEN now() ELSE rate_limits.window_start END
     RETURNING count, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => :w) - now())))::int AS reset`,
    { replacements: { key, w: windowSeconds }, type: QueryTypes.SELECT }
  )
  return { count: Number(row!.count), resetSeconds: Math.max(1, Number(row!.reset)) }
}

/** The fixed-window counters' housekeeping (the windows themselves are counted by `hitWindow`). */
export function createRateLimitService({ sequelize }: { sequelize: Sequelize }) {
  return {
    /** Housekeeping for the jobs: drops windows that ended long ago. */
    async purgeOlderThan(seconds: number): Promise<number> {
      const [, meta] = await sequelize.query('DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => :s)', { replacements: { s: seconds } })
      // rate-limiter-flexible's rows (services/limits/) carry their own expiry in epoch milliseconds.
      const [, flex] = await sequelize.query('DELETE FROM rate_limiter_flexible WHERE expire < :now', { replacements: { now: Date.now() } })
      // Stryker disable next-line OptionalChaining: a raw DELETE always answers a result object, never undefined
      return ((meta as { rowCount?: number })?.rowCount ?? 0) + ((flex as { rowCount?: number })?.rowCount ?? 0)
    }
  }
}
