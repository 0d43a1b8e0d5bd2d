/** What every payment provider (the real gateway or the built-in simulator) offers the payments service. */
export const PAYMENT_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
export const OPEN_STATUSES: readonly PaymentStatus[] = ['PENDING', 'IN_PROGRESS']
export const isFinal = (s: string) => s === 'SUCCESS' || s === 'FAILED' || s === 'EXPIRED'

export type Method = 'momo' | 'card'
/** How a payment row was paid: a gateway flow, or the agent's own wallet (issue 13). */
export type PaymentMethod = Method | 'wallet'
export type ProviderName = 'simulator' | 'paystack'

/** The gateway's word on a payment. Only this ever moves a payment to SUCCESS. */
export interface GatewayResult {
  status: PaymentStatus
  message: string
  extId?: string | null
  /** What the gateway says was paid, in pesewas; checked against what we asked for. */
  amountPesewas?: number | null
  currency?: string | null
}

export interface StartResult extends GatewayResult {
  authorizationUrl?: string | null
}

/** A payment row as providers read it (snake_case, straight from PostgreSQL). */
export interface PaymentRow {
  id: number
  transaction_id: string
  purpose: 'data' | 'afa' | 'agent_fee' | 'wallet_topup'
  gateway: string
  method: PaymentMethod
  ext_transaction_id: string | null
  status: PaymentStatus
  amount_pesewas: number
  payer_phone: string | null
  payer_network: string | null
  email: string | null
  message: string | null
  order_id: number | null
  afa_registration_id: number | null
  agent_id: number | null
  user_id: number | null
  details: Record<string, any>
  settled_at: Date | null
  last_checked_at: Date | null
  created_at: Date
}

export interface MomoStart {
  reference: string
  amountPesewas: number
  phone: string
  network: 'MTN' | 'TELECEL' | 'AIRTELTIGO'
  email: string
}

export interface CardStart {
  reference: string
  amountPesewas: number
  email: string
  callbackUrl?: string | null
}

export interface PaymentProvider {
  name: ProviderName
  /** Shown to people: 'Redirecting to {label}...'. */
  label: string
  /** The gateway's own pace for status checks of a pending payment (Paystack asks for 10 s on charges). */
  minCheckIntervalMs(method: Method): number
  startMomo(p: MomoStart): Promise<StartResult>
  startCard(p: CardStart): Promise<StartResult>
  check(p: PaymentRow): Promise<GatewayResult>
}

/** Thrown by providers when the gateway cannot be reached or answers nonsense; the payment is not settled by it. */
export class GatewayError extends Error {
  readonly gatewayMessage: string
  constructor(message: string, gatewayMessage?: string) {
    super(message)
    this.gatewayMessage = gatewayMessage ?? message
  }
}
