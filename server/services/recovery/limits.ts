import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible'
import type { Sequelize } from 'sequelize'

/**
 * The recovery limits (ADR 0018). Counters live in PostgreSQL (rate-limiter-flexible's store, table
 * recovery_rate_limits), so every instance agrees. None of them touches login: the owner who knows the
 * password signs in whatever an attacker does here.
 */
export const RECOVERY_LIMITS = {
  /** Reset requests from one client address. */
  requestPerIp: { points: 10, duration: 15 * 60 },
  /** Reset requests naming one phone number or email (known or not: the same answer either way). */
  requestPerIdentifier: { points: 5, duration: 60 * 60 },
  /** Codes actually sent to one account (5 codes x 5 tries = at most 25 guesses an hour). */
  codesPerAccount: { points: 5, duration: 60 * 60 },
  /** Code entries from one client address. */
  resetPerIp: { points: 10, duration: 15 * 60 }
} as const

export type LimitName = keyof typeof RECOVERY_LIMITS
export function createRecoveryLimiter({ sequelize, sweep }: { sequelize: Sequelize; sweep: boolean }) {
  const limiters = Object.fromEntries(
    Object.entries(RECOVERY_LIMITS).map(([name, l]) => [
      name,
      new RateLimiterPostgres({
        storeClient: sequelize,
        storeType: 'sequelize',
        tableName: 'recovery_rate_limits',
        tableCreated: true, // migration 160
        clearExpiredByTimeout: sweep,
        keyPrefix: `rec_${name}`,
        points: l.points,
        duration: l.duration
      })
    ])
  ) as Record<LimitName, RateLimiterPostgres>

  return {
    /** Takes one point; false when the limit is reached. A store failure is thrown, never read as "allowed". */
    async take(name: LimitName, key: string): Promise<boolean> {
      try {
        await limiters[name].consume(key)
        return true
      } catch (err) {
        if (err instanceof RateLimiterRes) return false
        throw err
      }
    }
  }
}
