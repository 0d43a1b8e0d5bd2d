import Joi from 'joi'
import crypto from 'node:crypto'
import { badRequest } from '../../lib/errors.ts'
import { toPesewas } from '../../lib/money.ts'
import { NETWORK_LABEL } from '../../lib/vocabulary.ts'
import type { TransferSimMode } from './simulator.ts'
import type { PayoutNetwork } from './transfers.ts'

// Payouts: the rows, their statuses, and the checks on what agents and admins send.

export const PAYOUT_SEND_TASK = 'payouts.send'
export const PAYOUT_CHECK_TASK = 'payouts.check'
// Crontab task names allow no dots.
export const PAYOUT_SWEEP_TASK = 'payoutsSweep'

export const PAYOUT_STATUSES = ['PENDING_APPROVAL', 'QUEUED', 'SENDING', 'SENT', 'UNKNOWN', 'SUCCESS', 'FAILED', 'REVERSED', 'REJECTED'] as const
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number]
/** Sent (or being sent): the gateway owes us its word. */
export const OPEN: PayoutStatus[] = ['SENDING', 'SENT', 'UNKNOWN']
/** Ended without money leaving: the hold goes back to the agent's earnings. */
export const RETURNS: PayoutStatus[] = ['FAILED', 'REVERSED', 'REJECTED']

export interface PayoutView {
  id: number
  agentId: number
  agentName?: string
  agentPhone?: string
  amount: number
  fee: number
  total: number
  status: PayoutStatus
  reference: string
  network: string
  phone: string
  accountName: string
  message: string | null
  channel: string
  retryOf: number | null
  retriedBy: number | null
  decisionReason: string | null
  createdAt: string
  updatedAt: string
}

export const NETWORK_LABELS: Record<PayoutNetwork, string> = NETWORK_LABEL

export const MAX_PAYOUT_GHS = 1_000_000
export const AMOUNT_MESSAGE = 'Enter an amount in cedis (up to 2 decimals)'

/** The same bounds for an amount already in pesewas (the USSD menu parses what was typed itself). */
export const amountPesewasSchema = Joi.object({
  amount: Joi.number().integer().positive().max(toPesewas(MAX_PAYOUT_GHS)).required().messages({ '*': AMOUNT_MESSAGE })
}).options({ stripUnknown: true })

/** A payout number as the agent names it (checked by its endpoint's schema). */
export interface PayoutNumberInput {
  network: PayoutNetwork
  phone: string
  accountName: string
}

/** The admin tab ('' for all; 'SENT'/'OPEN' everything the gateway still owes an answer on) and its page. */
export interface PayoutListInput {
  status: string
  page: number
  limit: number
}

export interface TransferSimInput {
  mode: TransferSimMode
  count?: number
  delayMs?: number
}

export const validate = <T>(schema: Joi.ObjectSchema, raw: unknown): T => {
  const { value, error } = schema.validate(raw ?? {})
  if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
  return value as T
}

/** The id-derived reference the gateway dedupes on: lowercase letters, digits and dashes (Paystack's rule). */
export const referenceFor = (id: number) => `dh-payout-${String(id).padStart(8, '0')}-${crypto.randomBytes(4).toString('hex')}`
