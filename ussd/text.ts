/** A USSD screen, 'CON '/'END ' included, fits 182 characters (the GSM USSD limit). */
export const SCREEN_MAX = 182
/** The 'CON ' or 'END ' prefix. */
const PREFIX = 4
/** Room kept on every menu for a one-line note ('Invalid choice.') above it. */
export const NOTE_ROOM = 28
export const NAV = '0 Back 00 Menu'

export {
  NETWORK_LABEL as NETWORK_LABELS,
  NETWORKS as NETWORK_ORDER,
  paymentStatusLabel as statusLabel,
  formatSize,
  ghsText as ghs,
  cediToGhs
} from '../server/lib/vocabulary.ts'

/** Only printable ASCII reaches a handset; anything else (names, emoji) is dropped. */
export function ascii(s: string): string {
  return String(s ?? '')
    .replace(/[^\x20-\x7E\n]/g, '')
    .replace(/[ \t]+/g, ' ')
}

/** The screen body, clamped so prefix + body never exceeds the limit (a last guard; menus are sized to fit). */
export function fit(body: string): string {
  const text = ascii(body).trim()
  const room = SCREEN_MAX - PREFIX
  return text.length <= room ? text : `${text.slice(0, room - 3).trimEnd()}...`
}

/** A menu with an optional note line on top. */
export function screen(lines: (string | null | undefined | false)[], note?: string | null): string {
  const kept = lines.filter(Boolean) as string[]
  let body = [note || null, ...kept].filter(Boolean).join('\n')
  // A note on a full screen takes the title's place rather than cutting off the choices.
  if (note && PREFIX + body.length > SCREEN_MAX) body = [note, ...kept.slice(1)].join('\n')
  return fit(body)
}

export const bodyFits = (body: string, reserve = NOTE_ROOM) => PREFIX + body.length + reserve <= SCREEN_MAX
