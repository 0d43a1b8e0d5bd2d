import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import crypto from 'node:crypto'
import type { Sequelize } from 'sequelize'
import { AppError } from '../../lib/errors.ts'
import { createLimitQueries } from './queries.ts'

/**
 * Request limits shared by every app instance, in rate-limiter-flexible's PostgreSQL table
 * (rate_limiter_flexible, migration 140): its limiters for sign-in, one statement of our own for `take`. Decision record 0016 explains the
 * numbers: an address may be one mobile carrier's NAT for thousands of customers, so per-address
 * limits are generous, and the tight limits sit on what one person owns (a phone number, an account).
 */
export const LIMITS = {
  // Placing orders and asking for payment prompts (each prompt rings someone's phone).
  orderPerIp: { points: 600, duration: 600 },
  orderPerPhone: { points: 10, duration: 600 },
  orderPerAccount: { points: 60, duration: 600 },
  // The public order lookup answers for any number.
  lookupPerIp: { points: 1200, duration: 600 },
  lookupPerPhone: { points: 30, duration: 600 },
  // Agent registration.
  registerPerIp: { points: 100, duration: 3600 },
  registerPerPhone: { points: 3, duration: 3600 },
  registerPerEmail: { points: 3, duration: 3600 },
  // "My checkers" by phone and transaction id: the answer holds PINs, so guessing is kept slow.
  voucherLookupPerIp: { points: 30, duration: 600 },
  voucherLookupPerPhone: { points: 5, duration: 600 },
  // Sending a purchase's cards again by SMS.
  voucherResendPerPurchase: { points: 3, duration: 3600 }
} as const

export type LimitName = keyof typeof LIMITS

export const TOO_MANY = 'Too many requests. Please wait a few minutes and try again.'

/** Keys may hold e-mails and addresses; hashing keeps them short (the store's key is 255 chars) and out of plain sight. */
export const limitKey = (...parts: Array<string | number | null | undefined>) =>
  crypto
    .createHash('sha256')
    .update(parts.map((p) => String(p ?? '')).join('\u0001'))
    .digest('base64url')

export function tooManyFor(res: RateLimiterRes | null, message = TOO_MANY): AppError {
  const retryAfter = res ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 60
  return new AppError(429, message, { retryAfter })
}

export function pgLimiter(sequelize: Sequelize, keyPrefix: string, points: number, duration: number) {
  return new RateLimiterPostgres({
    storeClient: sequelize,
    storeType: 'sequelize',
    tableName: 'rate_limiter_flexible',
    // Stryker disable next-line BooleanLiteral: false only makes the library run its own CREATE TABLE IF NOT EXISTS on the table migration 140 made
    tableCreated: true, // migration 140
    // Stryker disable next-line BooleanLiteral: true adds a timer deleting rows get() already ignores; no answer changes within a test
    clearExpiredByTimeout: false, // housekeeping deletes expired rows (rate-limit.ts), no in-process timer
    keyPrefix,
    points,
    duration
  })
}

export type LimitsService = ReturnType<typeof createLimitsService>

export function createLimitsService({ sequelize }: { sequelize: Sequelize }) {
  const queries = createLimitQueries(sequelize)

  return {
    /**
     * Takes one point from each named bucket whose key is present (a missing phone or account is
     * skipped); the first exhausted bucket answers 429 with its wait. Every bucket is charged, so a
     * refused request still counts against the others.
     */
    async take(buckets: Partial<Record<LimitName, string | number | null | undefined>>, message = TOO_MANY): Promise<void> {
      const named = (Object.entries(buckets) as Array<[LimitName, string | number | null | undefined]>).filter(
        ([, key]) => key !== null && key !== undefined && key !== ''
      )
      // Stryker disable next-line ConditionalExpression: only spares a query; charging no keys changes no row and refuses nothing
      if (!named.length) return
      const keys = named.map(([name, key]) => `lim_${name}:${limitKey(key)}`)
      const now = Date.now()
      const rows = await queries.take(
        keys,
        named.map(([name]) => LIMITS[name].duration * 1000),
        now
      )
      const byKey = new Map(rows.map((r) => [r.key, r]))
      for (const [i, [name]] of named.entries()) {
        const row = byKey.get(keys[i]!)
        if (row && row.points > LIMITS[name].points) throw tooManyFor(new RateLimiterRes(0, Math.max(0, row.expireMs - now)), message)
      }
    }
  }
}
