import crypto from 'node:crypto'
import { normalizePhone } from '../../lib/phone.ts'

export interface RecoveryAccount {
  id: number
  email: string
  /** Where codes and notices go: the agent's phone, else the user's. */
  phone: string | null
}

export type Identifier = { kind: 'email'; value: string } | { kind: 'phone'; value: string }

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** A phone number (digits, spaces, dashes, a leading +) or an email; null when it is neither. */
export function parseIdentifier(raw: string): Identifier | null {
  // Stryker disable next-line MethodExpression: both routes' schema trims the identifier before it comes here
  const text = raw.trim()
  if (text.includes('@')) {
    const fits =
      // Stryker disable next-line ConditionalExpression: both routes' schema refuses identifiers over 254 characters first
      text.length <= 254
    return EMAIL_RE.test(text) && fits ? { kind: 'email', value: text.toLowerCase() } : null
  }
  if (!/^\+?[\d\s-]+$/.test(text)) return null
  const phone = normalizePhone(text)
  return phone.length >= 9 && phone.length <= 12 ? { kind: 'phone', value: phone } : null
}

/**
 * The key the per-identifier limit counts under: the same for both spellings of a number. The value is
 * hashed because the limiter's key column holds 255 characters with its prefix, and an email may have 254.
 */
export const identifierKey = (id: Identifier) => `${id.kind}:${crypto.createHash('sha256').update(id.value).digest('hex')}`
