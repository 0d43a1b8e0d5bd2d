import type { Sequelize } from 'sequelize'
import { limitKey, pgLimiter, tooManyFor } from './index.ts'

/**
 * Sign-in throttling (decision 0016). Failures are counted per account AND address, so an
 * attacker elsewhere can never lock the owner out: an address that has not failed always gets its
 * answer. After FREE_FAILURES wrong passwords in the window the pair waits FIRST_DELAY_SECONDS; every
 * later failure (the pair's block history lasts a day) doubles the wait, up to MAX_DELAY_SECONDS.
 * One address failing against many accounts is capped separately (generous: carrier NAT).
 */
export const FREE_FAILURES = 5
export const FAILURE_WINDOW_SECONDS = 15 * 60
export const FIRST_DELAY_SECONDS = 60
export const MAX_DELAY_SECONDS = 60 * 60
export const BLOCK_MEMORY_SECONDS = 24 * 3600
export const FAILURES_PER_IP_PER_HOUR = 200
/** Failures on one account (from anywhere) in the window that raise a HIGH audit entry for its owner. */
export const ACCOUNT_ALERT_FAILURES = 10

export const THROTTLED_MESSAGE = 'Too many failed sign-in attempts from this network. Please wait and try again.'

export type LoginThrottle = ReturnType<typeof createLoginThrottle>

export function createLoginThrottle({ sequelize }: { sequelize: Sequelize }) {
  const pair = pgLimiter(sequelize, 'login_pair', FREE_FAILURES, FAILURE_WINDOW_SECONDS)
  const pairBlocks = pgLimiter(sequelize, 'login_pair_blocks', 1_000_000, BLOCK_MEMORY_SECONDS)
  const perIp = pgLimiter(sequelize, 'login_ip', FAILURES_PER_IP_PER_HOUR, 3600)
  const perAccount = pgLimiter(sequelize, 'login_acct', 1_000_000, FAILURE_WINDOW_SECONDS)
  const keys = (email: string, ip: string | null | undefined) => ({ pair: limitKey(email, ip ?? 'unknown'), ip: limitKey(ip ?? 'unknown') })

  return {
    /** Throws 429 (with the wait) when this address must not try this account, or any account, now. */
    async check(email: string, ip: string | null | undefined): Promise<void> {
      const k = keys(email, ip)
      const [p, a] = await Promise.all([pair.get(k.pair), perIp.get(k.ip)])
      // Each operand on its own line so that the Stryker comments below leave out only the equivalent mutants.
      if (
        p &&
        // Stryker disable next-line EqualityOperator: the pair's count is 5 only inside failed(), between penalty and block (which sets 6)
        p.consumedPoints > FREE_FAILURES &&
        // Stryker disable next-line EqualityOperator,ConditionalExpression: get() returns only unexpired rows, so msBeforeNext > 0 always holds
        p.msBeforeNext > 0
      )
        throw tooManyFor(p, THROTTLED_MESSAGE)
      if (
        a &&
        a.consumedPoints > FAILURES_PER_IP_PER_HOUR &&
        // Stryker disable next-line EqualityOperator,ConditionalExpression: get() returns only unexpired rows, so msBeforeNext > 0 always holds
        a.msBeforeNext > 0
      )
        throw tooManyFor(a, THROTTLED_MESSAGE)
    },

    /**
     * Counts a wrong password. Returns what happened, so the caller can tell the owner: the pair's new
     * wait (when it was just blocked) and the account's failures in the window.
     */
    async failed(email: string, ip: string | null | undefined): Promise<{ blockedSeconds: number | null; accountFailures: number }> {
      const k = keys(email, ip)
      await perIp.penalty(k.ip)
      const account = await perAccount.penalty(limitKey(email))
      const blocksSoFar = (await pairBlocks.get(k.pair))?.consumedPoints ?? 0
      const res = await pair.penalty(k.pair)
      // Until the first wait, FREE_FAILURES tries; after it, every failure waits again, each time twice as long.
      let blockedSeconds: number | null = null
      if (res.consumedPoints >= FREE_FAILURES || blocksSoFar > 0) {
        blockedSeconds = Math.min(MAX_DELAY_SECONDS, FIRST_DELAY_SECONDS * 2 ** blocksSoFar)
        await pair.block(k.pair, blockedSeconds)
        await pairBlocks.penalty(k.pair)
      }
      return { blockedSeconds, accountFailures: account.consumedPoints }
    },

    /** A correct password clears this address's failures for the account (not other addresses'). */
    async succeeded(email: string, ip: string | null | undefined): Promise<void> {
      const k = keys(email, ip)
      await Promise.all([pair.delete(k.pair), pairBlocks.delete(k.pair)])
    }
  }
}
