/** Ghana numbers: local 0XXXXXXXXX and international 233XXXXXXXXX are the same number. */
export function normalizePhone(raw: string): string {
  const digits = String(raw ?? '').replace(/\D/g, '')
  if (digits.length === 12 && digits.startsWith('233')) return `0${digits.slice(3)}`
  if (digits.length === 9 && !digits.startsWith('0')) return `0${digits}`
  return digits
}

/** Both spellings, for queries over columns that hold numbers as typed. */
export function phoneVariants(raw: string): string[] {
  const local = normalizePhone(raw)
  const out = new Set([local, String(raw ?? '').replace(/\D/g, '')])
  if (local.length === 10 && local.startsWith('0')) out.add(`233${local.slice(1)}`)
  return [...out].filter(Boolean)
}

export const PHONE_RE = /^\d{1,12}$/
