import type { NetworkName } from '../../lib/vocabulary.ts'

/** What every payment provider (the real gateway or the built-in simulator) offers the payments service. */
export const PAYMENT_STATUSES = ['PENDING', 'IN_PROGRESS', 'SUCCESS', 'FAILED', 'EXPIRED', 'REFUND_PENDING', 'REFUNDED', 'REFUND_FAILED', 'REVERSED'] as const
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number]
/** Anything but PENDING / IN_PROGRESS: the settlement has happened (refunds and reversals come after it). */
export const isFinal = (s: string) => s !== 'PENDING' && s !== 'IN_PROGRESS'
/** What the gateway may answer about a payment: an outcome, or still open. */
export type GatewayStatus = 'PENDING' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILED' | 'EXPIRED'

export type Method = 'momo' | 'card'
/** How a payment row was paid: a gateway flow, or the agent's own wallet. */
export type PaymentMethod = Method | 'wallet'
export type ProviderName = 'simulator' | 'paystack'

/** The gateway's word on a payment. Only this ever moves a payment to SUCCESS. */
export interface GatewayResult {
  status: GatewayStatus
  message: string
  /** The gateway wants a code from the payer (Paystack send_otp / send_pin / send_phone). */
  needs?: 'otp' | 'pin' | 'phone' | null
  /** The answer was not the gateway's word (timeout, 5xx, 429, not JSON, duplicate reference): stays open. */
  unclear?: boolean
  extId?: string | null
  /** What the gateway says was paid, in pesewas; checked against what we asked for. */
  amountPesewas?: number | null
  currency?: string | null
}

export interface StartResult extends GatewayResult {
  authorizationUrl?: string | null
  /** Why the outcome is unknown (kept on the payment for the admin). */
  note?: string
  /** A code the gateway did not accept: the payer may type it again. */
  rejected?: boolean
}

/** A payment row as providers read it (snake_case, straight from PostgreSQL). */
export interface PaymentRow {
  id: number
  transaction_id: string
  purpose: 'data' | 'afa' | 'agent_fee' | 'wallet_topup' | 'voucher' | 'batch'
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
  /** Taken by the payment simulator: no real money moved (migration 140). */
  simulated?: boolean
}

export interface MomoStart {
  reference: string
  amountPesewas: number
  phone: string
  network: NetworkName
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
  /** Sends the payer's voucher / OTP / PIN for a charge that asked for one. */
  submitCode(p: PaymentRow, kind: 'otp' | 'pin' | 'phone', code: string): Promise<StartResult>
  /** Gives money back (all or part of a settled payment). */
  refund(r: RefundCall): Promise<RefundAnswer>
  /** A refund already made at the gateway for this reference (after a crash mid-call), or null. */
  findRefund(reference: string): Promise<RefundAnswer | null>
  /** The gateway's transactions created in [from, to), every page. */
  listTransactions(from: Date, to: Date): Promise<GatewayTxn[]>
  /** How long an open payment of this method may wait for the payer before it expires. */
  expireAfterMs(method: Method): number
}

export interface RefundCall {
  /** Our refund's id: a provider without its own idempotency (the agent wallet) keys on it. */
  refundId: number
  reference: string
  extId: string | null
  amountPesewas: number
  reason: string
}

/** PROCESSED: money is back; SENT: accepted, the outcome comes later (webhook); FAILED: refused; UNCLEAR: ask again. */
export interface RefundAnswer {
  status: 'PROCESSED' | 'SENT' | 'FAILED' | 'UNCLEAR'
  extRefundId?: string | null
  message: string
}

export interface GatewayTxn {
  reference: string
  status: string
  amountPesewas: number
  currency: string | null
}

/** Thrown by providers when the gateway cannot be reached or answers nonsense; the payment is not settled by it. */
export class GatewayError extends Error {
  readonly gatewayMessage: string
  constructor(message: string, gatewayMessage?: string) {
    super(message)
    this.gatewayMessage = gatewayMessage ?? message
  }
}
