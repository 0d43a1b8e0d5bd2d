import type { Ctx } from '../server/services/context.ts'
import type { Services } from '../server/services/index.ts'
import type { UssdAgent } from '../server/services/ussd/index.ts'
import type { MenuPorts } from './ports.ts'

// Apart from the menu so that the actions, which the menu's screens call, can speak of a dial too.

export type Screen = 'pin' | 'main' | 'network' | 'packages' | 'recipient' | 'recipientInput' | 'payNetwork' | 'confirm' | 'voucher' | 'orders' | 'statusInput' | 'statusResult'
  // Shop earnings and a payout to the verified number.
  | 'earnings' | 'payoutAmount' | 'payoutPin'
  // Result-checker cards from the wallet.
  | 'checkerProduct' | 'checkerQty' | 'checkerConfirm'

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

export type Outcome = { go: Screen } | { note: string } | { end: string } | { stay: true }

export interface MenuEnv {
  services: Services
  ports: MenuPorts
  ctx: Ctx
  sessionId: string
}
