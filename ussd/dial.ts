import type { Ctx } from '../server/services/context.ts'
import type { Services } from '../server/services/index.ts'
import type { UssdAgent } from '../server/services/ussd/index.ts'
import type { MenuPorts } from './ports.ts'

// Apart from the menu so that the actions, which the menu's screens call, can speak of a dial too.

export type Screen =
  | 'pin'
  | 'main'
  | 'network'
  | 'packages'
  | 'recipient'
  | 'recipientInput'
  | 'payNetwork'
  | 'confirm'
  | 'voucher'
  | 'orders'
  | 'statusInput'
  | 'statusResult'
  // Shop earnings and a payout to the verified number.
  | 'earnings'
  | 'payoutAmount'
  | 'payoutPin'
  // Result-checker cards from the wallet.
  | 'checkerProduct'
  | 'checkerQty'
  | 'checkerConfirm'

/** What a dial remembers between hops (stored as JSON in ussd_sessions). Never the PIN. */
export interface DialState {
  v: 1
  /** Characters of a cumulative gateway's `text` already handled. */
  consumed: number
  agent: UssdAgent
  /** The caller's mobile-money network (from the gateway or the number; asked when unknown). */
  payerNetwork: string | null
  authed: boolean
  screen: Screen
  stack: Screen[]
  network?: string
  page?: number
  packageId?: number
  recipient?: string
  orderId?: number
  /** The payout asked for in this dial, in pesewas (confirmed with the PIN). */
  payoutPesewas?: number
  /** The result checker chosen in this dial, and how many cards. */
  checkerProductId?: number
  checkerQty?: number
}

export type Outcome<S extends string = Screen> = { go: S } | { note: string } | { end: string } | { stay: true }

export const MAX_INPUT = 40

/**
 * One answer in a dial, for either menu: '00' home and '0' back when `nav` allows them (`back` may
 * take a '0' first, as a paged list does), else the current screen's own rule; then the screen to show.
 */
export async function stepWith<S extends string>(
  s: { screen: S; stack: S[] },
  input: string,
  o: { home: S; nav: boolean; back?: () => boolean; answer: (v: string) => Promise<Outcome<S>>; render: (note: string | null) => Promise<string> }
): Promise<{ end: boolean; text: string }> {
  let note: string | null = null
  if (input.length > MAX_INPUT) note = 'Input too long.'
  else if (o.nav && input === '00') {
    s.stack = []
    s.screen = o.home
  } else if (o.nav && input === '0' && s.screen !== o.home) {
    if (!o.back?.()) s.screen = s.stack.pop() ?? o.home
  } else {
    const out = await o.answer(input)
    if ('end' in out) return { end: true, text: out.end }
    if ('note' in out) note = out.note
    if ('go' in out) {
      s.stack.push(s.screen)
      s.screen = out.go
    }
  }
  return { end: false, text: await o.render(note) }
}

export interface MenuEnv {
  services: Services
  ports: MenuPorts
  ctx: Ctx
  sessionId: string
}
