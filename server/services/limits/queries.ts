import { QueryTypes, type Sequelize } from 'sequelize'
import { NO_FLUSH_WAIT, preparedFor } from '../../../models/prepared.ts'

// Every statement of the limits of our own (the fixed windows of `rate_limits` as a CTE, the buckets `take`
// charges in rate-limiter-flexible's table, and their housekeeping), and the typed rows they return.
// rate-limiter-flexible's sign-in limiters run the library's own statements on the same table.

/** A bucket after `take` charged it: its points used and its expiry in epoch milliseconds. */
export interface Bucket {
  key: string
  points: number
  expireMs: number
}

/**
 * One point from each of several buckets in one statement, in the layout of rate-limiter-flexible's
 * store (`<prefix>:<key>`, points used, expiry in ms), so its limiters and this read the same rows.
 * The counters do not wait for the WAL flush (ADR 0046): a crash of PostgreSQL itself may forget the
 * last fraction of a second of counts, letting a few more requests through, and nothing else; the
 * next synchronous commit flushes them anyway.
 */
const TAKE = `INSERT INTO rate_limiter_flexible (key, points, expire)
  SELECT b.key, 1, $3::bigint + b.ms FROM unnest($1::text[], $2::bigint[]) AS b(key, ms), ${NO_FLUSH_WAIT}
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN rate_limiter_flexible.expire <= $3 THEN 1 ELSE rate_limiter_flexible.points + 1 END,
    expire = CASE WHEN rate_limiter_flexible.expire <= $3 THEN EXCLUDED.expire ELSE rate_limiter_flexible.expire END
  RETURNING key, points, expire`

/**
 * One hit in a fixed window of `rate_limits` (a window that has ended starts again at one), returning the count
 * so far and the whole seconds until the window ends. `keySql` is the key's SQL, over the FROM items `from` (none,
 * or a CTE of the statement it is part of, the way `auditOfWritten` is the audit's); `seconds` the window's.
 * A counter, not money: it need not wait for the WAL flush (ADR 0046, as the request limits).
 */
export const windowHitOf = (keySql: string, from: string, seconds: string) =>
  `INSERT INTO rate_limits (key, count, window_start) SELECT ${keySql}, 1, now() FROM ${from ? `${from}, ` : ''}${NO_FLUSH_WAIT}
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${seconds}) THEN 1 ELSE rate_limits.count + 1 END,
       window_start = CASE WHEN rate_limits.window_start < now() - make_interval(secs => ${seconds}) THEN now() ELSE rate_limits.window_start END
     RETURNING count, CEIL(EXTRACT(EPOCH FROM (window_start + make_interval(secs => ${seconds}) - now())))::int AS reset`

const rowCount = (meta: unknown) =>
  // Stryker disable next-line OptionalChaining: a raw DELETE always answers a result object, never undefined
  (meta as { rowCount?: number })?.rowCount ?? 0

export function createLimitQueries(sequelize: Sequelize) {
  const run = preparedFor(sequelize)
  return {
    /** Charges each key one point, its expiry `durationMs` from `now` when its window had ended. */
    async take(keys: string[], durationsMs: number[], now: number): Promise<Bucket[]> {
      const rows = await run<{ key: string; points: number; expire: string }>(TAKE, [keys, durationsMs, now])
      return rows.map((r) => ({ key: r.key, points: r.points, expireMs: Number(r.expire) }))
    },

    /** Drops the windows that ended more than `seconds` ago and rate-limiter-flexible's expired rows: how many went. */
    async purge(seconds: number, now: number): Promise<number> {
      const [, meta] = await sequelize.query('DELETE FROM rate_limits WHERE window_start < now() - make_interval(secs => :s)', { replacements: { s: seconds } })
      // rate-limiter-flexible's rows (services/limits/) carry their own expiry in epoch milliseconds.
      const [, flex] = await sequelize.query('DELETE FROM rate_limiter_flexible WHERE expire < :now', { replacements: { now } })
      return rowCount(meta) + rowCount(flex)
    }
  }
}
