import type { Transaction } from 'sequelize'
import type { Ctx } from '../context.ts'

/** The delivery side of an order, as its status changes and the subscribers of those changes see it. */

export const DELIVERY_STATUSES = ['NOT_STARTED', 'QUEUED', 'PROCESSING', 'DELIVERED', 'FAILED', 'MANUAL'] as const
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number]

export interface DeliveryRow {
  id: number
  user_id: number | null
  agent_id: number | null
  recipient_number: string
  payment_phone_number: string | null
  network: string
  data_size_mb: number
  payment_status: string
  payment_transaction_id: string | null
  delivery_status: DeliveryStatus
  delivery_vendor: string | null
  delivery_reference: string | null
  delivery_attempts: number
  delivery_error: string | null
  delivered: boolean
  delivered_at: Date | null
  /**
   * Whether its agent had a webhook URL when the statement that returned this row read it (a wallet order's own
   * statement, ADR 0075); absent when it was not read. False lets the agents' webhooks skip their read of the order.
   */
  agent_hooked?: boolean
  /** The worker pool whose pump claimed it (ADR 0056); null otherwise. */
  delivery_claim?: string | null
  /** Paid through the payment simulator: never sent to a real vendor. */
  simulated?: boolean
  /** A bulk order's line (ADR 0039). */
  batch_id?: number | null
  /** Where it was placed: web, api, ussd, whatsapp. */
  channel?: string
  /** A shop order's sale (migration 201). */
  shop_id?: number | null
  shop_agent_id?: number | null
  shop_margin_pesewas?: number | string | null
}

export interface StatusDetails {
  vendor?: string | null
  reference?: string | null
  /** The reason of the last failed attempt; null clears it. */
  error?: string | null
  /** +1 when a worker claims the order for a vendor call; 'reset' on 'Retry delivery'. */
  attempts?: 'increment' | 'reset'
  /** Who or what caused it, for the audit entry (vendor callback, status sync, export...). */
  via?: string
  /**
   * The delivery job's own flow: the buyer's text is written without a job of its own and its id
   * pushed here, for the caller to send once this change commits (`sms.dispatchMany`).
   */
  smsOut?: number[]
  /** A worker's claim: the vendor per network from settings (kept when the order has one). */
  vendorByNetwork?: Record<string, string>
  /** Only an order no vendor has accepted yet (no reference): one accepted is asked, never sent again. */
  unconfirmed?: boolean
  /** A change redone anyway if a crash of PostgreSQL loses it (a worker's claim): no wait for the WAL flush. */
  noFlushWait?: boolean
  /** A pump's claim (ADR 0056): the claiming worker pool's id, so a claim whose process died is taken back. */
  claim?: string
  /** A hint that the order is an agent's: skip the customer's one-statement path (see `alone`). */
  agentOrder?: boolean
}

/**
 * What a subscriber of `delivery.changed` acts on: the statuses it reacts to (all when absent) and whether only agents' orders.
 * It never runs on a change outside its scope, which lets a change no subscriber, audit entry or text
 * cares about (a worker's claim of a customer's order) go to PostgreSQL as one statement.
 */
export interface DeliveryScope {
  to?: DeliveryStatus[]
  agentOrdersOnly?: boolean
  /** Only orders sold through an agent's shop (shop_id set). */
  shopOrdersOnly?: boolean
  /** Only orders placed on these channels (a chat's receipt goes to its chat's orders alone). */
  channels?: string[]
}

/** One change of an order's delivery status, as `delivery.changed` carries it (`from` may equal `to`: a claim again). */
export interface DeliveryChange {
  order: DeliveryRow
  from: DeliveryStatus
  to: DeliveryStatus
  details: StatusDetails
}

/**
 * What delivery needs of the domain events (ADR 0037): to publish each change in its transaction, and
 * the scopes of those who listen, so that a change nobody hears can take a shorter path.
 */
export interface DeliveryEvents {
  publish(name: 'delivery.changed', change: DeliveryChange, ctx: Ctx & { transaction: Transaction }, inScope: (scope: DeliveryScope) => boolean): Promise<void>
  scopes(name: 'delivery.changed'): Partial<DeliveryScope>[]
}
