import { paymentStatusLabel } from '../../server/lib/vocabulary.ts'

/** The payment dialog's texts, exactly as the spec gives them (section 4). */
export const READY = 'Ready to complete payment'
export const STATUS_TEXT: Record<string, string> = {
  PENDING: 'USSD prompt sent! Check your phone and complete payment.',
  IN_PROGRESS: 'Payment in progress. Check your phone for USSD prompt.',
  SUCCESS: 'Payment successful! Your data will be delivered shortly.',
  FAILED: 'Payment failed. You can retry the payment.',
  EXPIRED: 'Payment expired. Please start again.',
  REFUND_PENDING: 'Your money is being refunded.',
  REFUNDED: 'Your money has been refunded.',
  REFUND_FAILED: 'Your refund is delayed; the shop has been told and will contact you.',
  REVERSED: 'This payment was reversed.'
}
/** Badge labels (spec section 4), from the one vocabulary. */
export const statusLabel = (s: string | null | undefined) => paymentStatusLabel(s, '')
export const AFA_SUCCESS_TEXT = 'Payment successful! Your AFA registration is being processed.'
export const CHECK_FAILED_TOAST = 'Payment failed. You can retry the payment.'
export const CHECK_PENDING_TOAST = 'Payment still pending. Please approve on your phone, then check status again.'
export const NO_TRANSACTION = 'No transaction ID available'
export const PAYMENT_REQUEST_FAILED = 'Payment request failed'
export const CHECK_FAILED = 'Failed to check payment status'

export interface PaymentState {
  transactionId: string
  paymentStatus: string
  message: string
  extTransactionId: string | null
  gateway?: string
  authorizationUrl?: string | null
  providerLabel?: string
  /** The gateway asks the payer for a code (Telecel voucher, OTP) before it can charge. */
  needsCode?: 'otp' | 'pin' | 'phone' | null
}

/** A random integer of up to 15 digits, as the spec's client makes transaction ids. */
export function newTransactionId(): string {
  const a = new Uint32Array(2)
  crypto.getRandomValues(a)
  const n = (((BigInt(a[0]!) << 32n) | BigInt(a[1]!)) % 900_000_000_000_000n) + 100_000_000_000_000n
  return n.toString()
}

/** sessionStorage key: where /payment-callback sends a buyer whose card checkout began in an agent's shop. */
export const SHOP_RETURN_KEY = 'rdh_shop_return'
