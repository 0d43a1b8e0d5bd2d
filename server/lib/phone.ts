/**
 * Ghana phone numbers. Local 0XXXXXXXXX, international 233XXXXXXXXX and the 9 digits alone are the
 * same number. Pure functions: the server and the pages' forms share them.
 */

import { NETWORK_LABEL, type NetworkName } from './vocabulary.ts'

export type PhoneNetwork = NetworkName

/** Mobile prefixes (the 2 digits after the 0) per network, as the NCA allocates them. */
export const MOBILE_PREFIXES: Record<PhoneNetwork, readonly string[]> = {
  MTN: ['24', '25', '53', '54', '55', '59'],
  TELECEL: ['20', '50'],
  AIRTELTIGO: ['26', '27', '56', '57']
}

export const INVALID_MOBILE = 'Enter a Ghanaian mobile number: 0 and 9 digits, like 0241234567'

/** What a person may type around the digits: spaces, dashes, dots, brackets and a leading +. */
function strip(raw: unknown): string {
  return String(raw ?? '')
    .trim()
    .replace(/[\s().-]/g, '')
    .replace(/^\+/, '')
}

export function normalizePhone(raw: string): string {
  const digits = String(raw ?? '').replace(/\D/g, '')
  if (digits.length === 12 && digits.startsWith('233')) return `0${digits.slice(3)}`
  if (digits.length === 9 && !digits.startsWith('0')) return `0${digits}`
  return digits
}

/** The network a local number's prefix belongs to, or null when it is no known mobile prefix. */
export function networkOfPhone(raw: string): PhoneNetwork | null {
  const local = normalizePhone(strip(raw))
  if (!/^0\d{9}$/.test(local)) return null
  const prefix = local.slice(1, 3)
  for (const [network, prefixes] of Object.entries(MOBILE_PREFIXES)) if (prefixes.includes(prefix)) return network as PhoneNetwork
  return null
}

/**
 * A number that can receive data or a mobile-money prompt: 0 plus 9 digits, 233 plus 9 digits, or
 * the 9 digits alone, with a known mobile prefix. Answers the local form, or an error message.
 */
export function parseGhanaMobile(raw: unknown): { ok: true; local: string; network: PhoneNetwork } | { ok: false; error: string } {
  const s = strip(raw)
  if (!/^(0\d{9}|233\d{9}|[1-9]\d{8})$/.test(s)) return { ok: false, error: INVALID_MOBILE }
  const local = normalizePhone(s)
  const network = networkOfPhone(local)
  if (!network) return { ok: false, error: INVALID_MOBILE }
  return { ok: true, local, network }
}

/**
 * A warning, never a block: numbers move between networks (number portability), so a prefix of
 * another network than the one chosen may still be right.
 */
export function networkMismatchWarning(raw: string, chosen: string): string | null {
  const network = networkOfPhone(raw)
  const want = String(chosen ?? '').toUpperCase()
  if (!network || !want || network === want) return null
  return `This looks like ${network === 'MTN' ? 'an' : 'a'} ${NETWORK_LABEL[network]} number, not ${NETWORK_LABEL[want] ?? want}. Check it, unless it moved networks.`
}

/** Every spelling a stored number may have, for queries over columns that hold numbers as typed. */
export function phoneVariants(raw: string): string[] {
  const typed = strip(raw).replace(/\D/g, '')
  const local = normalizePhone(typed)
  const out = new Set([local, typed])
  if (local.length === 10 && local.startsWith('0')) {
    out.add(`233${local.slice(1)}`)
    out.add(local.slice(1))
  }
  return [...out].filter(Boolean)
}
