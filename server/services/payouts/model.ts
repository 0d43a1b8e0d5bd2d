import Joi from 'joi'
import crypto from 'node:crypto'
import { badRequest } from '../../lib/errors.ts'
import { isWholePesewas, toPesewas } from '../../lib/money.ts'
import { NETWORKS, NETWORK_LABEL, orList } from '../../lib/vocabulary.ts'
import { TRANSFER_SIM_MODES } from './simulator.ts'
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

export const numberSchema = Joi.object({
  network: Joi.string()
    .uppercase()
    .valid(...NETWORKS)
    .required()
    .messages({ '*': `Choose the network: ${orList(NETWORKS.map((n) => NETWORK_LABEL[n]!))}` }),
  phone: Joi.string().required().messages({ '*': 'Enter the mobile money number' }),
  accountName: Joi.string().trim().min(2).max(120).required().messages({ '*': 'Enter the account name registered on the number (2 to 120 characters)' })
}).options({ stripUnknown: true })

const MAX_PAYOUT_GHS = 1_000_000
const AMOUNT_MESSAGE = 'Enter an amount in cedis (up to 2 decimals)'

export const amountSchema = Joi.object({
  amount: Joi.number()
    .positive()
    .max(MAX_PAYOUT_GHS)
    .required()
    .custom((v: number, h) => (isWholePesewas(v) ? v : h.error('any.invalid')))
    .messages({ '*': AMOUNT_MESSAGE })
}).options({ stripUnknown: true })

/** The same bounds for an amount already in pesewas (the USSD menu parses what was typed itself). */
export const amountPesewasSchema = Joi.object({
  amount: Joi.number().integer().positive().max(toPesewas(MAX_PAYOUT_GHS)).required().messages({ '*': AMOUNT_MESSAGE })
}).options({ stripUnknown: true })

export const reasonSchema = Joi.object({
  reason: Joi.string().trim().min(3).max(300).required().messages({ '*': 'A reason of at least 3 characters is required' })
}).options({ stripUnknown: true })

export const listSchema = Joi.object({
  status: Joi.string().valid('', 'PENDING_APPROVAL', 'SENT', 'SUCCESS', 'FAILED', 'REVERSED', 'REJECTED', 'OPEN').default(''),
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20)
}).options({ stripUnknown: true })

export const simulatorSchema = Joi.object({
  mode: Joi.string()
    .valid(...TRANSFER_SIM_MODES)
    .required()
    .messages({ '*': `Mode must be one of ${TRANSFER_SIM_MODES.join(', ')}` }),
  count: Joi.number().integer().min(1).max(100),
  delayMs: Joi.number().integer().min(0).max(600_000)
}).options({ stripUnknown: true })

export const validate = <T>(schema: Joi.ObjectSchema, raw: unknown): T => {
  const { value, error } = schema.validate(raw ?? {})
  if (error) throw badRequest(error.details[0]!.message.replace(/"/g, ''))
  return value as T
}

/** The id-derived reference the gateway dedupes on: lowercase letters, digits and dashes (Paystack's rule). */
export const referenceFor = (id: number) => `dh-payout-${String(id).padStart(8, '0')}-${crypto.randomBytes(4).toString('hex')}`
