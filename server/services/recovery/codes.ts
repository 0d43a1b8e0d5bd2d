import crypto from 'node:crypto'

export const CODE_TTL_SECONDS = 10 * 60
export const MAX_CODE_ATTEMPTS = 5

/** Six digits from the CSPRNG (uniform over 000000-999999). */
export const newCode = () => String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')

/**
 * Only an HMAC of the code is stored, keyed by a server secret and bound to the account: a copy of
 * the table alone cannot be searched for the 10^6 codes, and a code is worth nothing for another account.
 */
export function codeHash(secret: string, userId: number, code: string): string {
  return crypto.createHmac('sha256', secret).update(`${userId}:${code}`).digest('hex')
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex')
  const y = Buffer.from(b, 'hex')
  // timingSafeEqual throws on different lengths.
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: both sides are SHA-256 HMACs in hex (32 bytes), so the lengths always match
  if (x.length !== y.length) return false
  return crypto.timingSafeEqual(x, y)
}
