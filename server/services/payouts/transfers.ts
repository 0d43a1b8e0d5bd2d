import type { NetworkName } from '../../lib/vocabulary.ts'

/** What a transfers provider (Paystack Transfers or the built-in simulator) offers the payouts service. */
export type PayoutNetwork = NetworkName

/** The gateway's word on one transfer. 'otp': the account asks for an OTP per transfer (an admin must act). */
export type TransferState = 'pending' | 'success' | 'failed' | 'reversed' | 'otp'

export interface TransferWord {
  state: TransferState
  message: string
  transferCode?: string | null
  /** What the gateway says it moved, checked against the payout before it settles anything. */
  amountPesewas?: number | null
  currency?: string | null
  /** The gateway's own status word, kept for the admin. */
  raw?: string
}

/** 'unclear': timeout, reset, 5xx, 429, a body that is not the gateway's: the call may or may not have taken effect. */
export type Unclear = { kind: 'unclear'; reason: string }

export type NumberAnswer =
  | { kind: 'verified'; recipientCode: string; bankCode: string | null; resolvedName: string | null }
  | { kind: 'refused'; message: string }
  | Unclear

export type SendAnswer = ({ kind: 'accepted' } & TransferWord) | { kind: 'refused'; message: string } | Unclear
export type VerifyAnswer = ({ kind: 'found' } & TransferWord) | { kind: 'not_found' } | Unclear

export interface TransfersProvider {
  name: 'paystack' | 'simulator'
  /** Checks the number with the gateway and registers it as a transfer recipient. */
  verifyNumber(n: { network: PayoutNetwork; phone: string; accountName: string }): Promise<NumberAnswer>
  /** Sends one transfer; the reference makes a second call with the same reference a no-op at the gateway. */
  send(t: { reference: string; amountPesewas: number; recipientCode: string; reason: string }): Promise<SendAnswer>
  /** The gateway's current word on a transfer by our reference. */
  verify(reference: string): Promise<VerifyAnswer>
}

/** Paystack's transfer status words; anything new keeps the payout open (asked again, never guessed). */
export function transferState(status: unknown): TransferState {
  switch (String(status ?? '').toLowerCase()) {
    case 'success':
      return 'success'
    case 'failed':
    // Never sent: the account's OTP was not given, or Paystack blocked or rejected it.
    case 'abandoned':
    case 'blocked':
    case 'rejected':
      return 'failed'
    case 'reversed':
      return 'reversed'
    case 'otp':
      return 'otp'
    default:
      return 'pending'
  }
}
