import crypto from 'node:crypto'
import { keyBytesOf, type Env } from '../env.ts'

/** Marks a sealed text wherever it is stored next to plain ones (the SMS outbox). */
export const SEALED_PREFIX = 'sealed:v1:'

export interface SecretBox {
  /** True when the key came from VOUCHER_ENCRYPTION_KEY (not the development stand-in). */
  configured: boolean
  seal(plain: string): string
  open(sealed: string): string
  isSealed(text: string): boolean
}

/**
 * AES-256-GCM with a fresh 12-byte IV per text: iv, tag and ciphertext travel together as one
 * base64 string after SEALED_PREFIX. The tag makes a tampered or wrong-key text fail loudly instead
 * of opening to garbage. Without VOUCHER_ENCRYPTION_KEY, development and tests use a key derived
 * from a fixed phrase, so a fresh `npm start` works; production refuses to seal or open without one.
 */
export function createSecretBox(env: Pick<Env, 'NODE_ENV' | 'VOUCHER_ENCRYPTION_KEY'>): SecretBox {
  const given = env.VOUCHER_ENCRYPTION_KEY ? keyBytesOf(env.VOUCHER_ENCRYPTION_KEY) : null
  const key = given ?? (env.NODE_ENV === 'production' ? null : crypto.createHash('sha256').update('datahub development voucher key').digest())
  const need = () => {
    if (!key) throw new Error('VOUCHER_ENCRYPTION_KEY is not set')
    return key
  }
  return {
    configured: !!given,
    seal(plain) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', need(), iv)
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
    },
    open(sealed) {
      if (!sealed.startsWith(SEALED_PREFIX)) throw new Error('not a sealed text')
      const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64')
      const decipher = crypto.createDecipheriv('aes-256-gcm', need(), raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    },
    isSealed: (text) => text.startsWith(SEALED_PREFIX)
  }
}
