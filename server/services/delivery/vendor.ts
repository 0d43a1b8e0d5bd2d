import type { NetworkName } from '../../lib/vocabulary.ts'

/** What a vendor needs to send one bundle. */
export interface DeliveryOrder {
  id: number
  network: NetworkName | string
  recipientNumber: string
  dataSizeMb: number
}

/** DELIVERED: the vendor confirms now. PENDING: accepted, confirmed later (callback or status()). */
export interface SendResult {
  status: 'DELIVERED' | 'PENDING'
  reference: string
  message?: string
}

export interface StatusResult {
  status: 'DELIVERED' | 'PENDING' | 'FAILED'
  message?: string
}

/**
 * One data vendor (ADR 0012). `send` must be idempotent on `idempotencyKey`: called again with the
 * same key (a retry after a timeout, a worker that died mid-call), the vendor answers with the first
 * order's reference instead of sending a second bundle.
 */
export interface DeliveryVendor {
  readonly name: string
  send(order: DeliveryOrder, idempotencyKey: string): Promise<SendResult>
  status(reference: string): Promise<StatusResult>
  /** Account balance in GHS, or null when the vendor cannot tell. */
  balance(): Promise<number | null>
}

/**
 * A vendor call that did not deliver. `retryable` (timeouts, 5xx, network) means the outcome is
 * unknown or passing, so the same key is tried again later; otherwise the order fails at once
 * (bad number, unsupported bundle, not configured).
 */
export class VendorError extends Error {
  readonly retryable: boolean
  constructor(message: string, retryable: boolean) {
    super(message)
    this.retryable = retryable
  }
}

/** Derived from the order alone, so every retry on every instance sends the same key. */
export const idempotencyKeyFor = (order: { id: number; payment_transaction_id?: string | null }) =>
  `datahub-${order.id}-${order.payment_transaction_id ?? 'order'}`
