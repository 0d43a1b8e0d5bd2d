import crypto from 'node:crypto'
import { promisify } from 'node:util'

// Node 24 ships argon2id in node:crypto (no native addon to build).
const argon2 = promisify((crypto as unknown as { argon2: (...a: unknown[]) => void }).argon2) as (
  algorithm: string,
  params: Record<string, unknown>
) => Promise<Buffer>

const PARAMS = { memory: 19456, passes: 2, parallelism: 1, tagLength: 32 }

export async function hashSecret(secret: string, params = PARAMS): Promise<string> {
  const nonce = crypto.randomBytes(16)
  const tag = await argon2('argon2id', { message: secret, nonce, ...params })
  return `$argon2id$v=19$m=${params.memory},t=${params.passes},p=${params.parallelism}$${nonce.toString('base64url')}$${tag.toString('base64url')}`
}

/**
 * A 4-digit PIN has 10,000 values: no hash setting makes an offline search slow, and online guesses
 * are stopped by the per-agent lock. Lighter settings keep each USSD PIN hop fast under load.
 */
const PIN_PARAMS = { memory: 4096, passes: 1, parallelism: 1, tagLength: 32 }
export const hashPin = (pin: string) => hashSecret(pin, PIN_PARAMS)

export async function verifySecret(secret: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false
  const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored)
  if (!m) return false
  const expected = Buffer.from(m[5]!, 'base64url')
  const tag = await argon2('argon2id', {
    message: secret,
    nonce: Buffer.from(m[4]!, 'base64url'),
    memory: Number(m[1]),
    passes: Number(m[2]),
    parallelism: Number(m[3]),
    tagLength: expected.length
  })
  return tag.length === expected.length && crypto.timingSafeEqual(tag, expected)
}

/** A hash every failed lookup can be checked against, so unknown accounts take as long as known ones. */
let dummy: Promise<string> | undefined
export const dummyHash = () => (dummy ??= hashSecret('not-a-real-password'))

export const randomToken = (bytes = 32) => crypto.randomBytes(bytes).toString('base64url')
export const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex')
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && crypto.timingSafeEqual(x, y)
}
