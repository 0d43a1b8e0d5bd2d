import Joi from 'joi'
import { type AdjustInput, ENTRY_TYPES, type StatementInput, type TopupInput } from '../../../services/wallet/index.ts'

// One schema per endpoint of /api/wallet, bound to the type its service takes: the route checks once.

// A day as the statement's filter takes it; an empty one is no filter.
const day = (message: string) =>
  Joi.date()
    .iso()
    .empty('')
    .default(null)
    .custom((d: Date) => d.toISOString().slice(0, 10))
    .messages({ '*': message })

/** GET /api/wallet/statement, its statement.csv and GET /api/wallet/agents/:id */
export const statementQuery = Joi.object<StatementInput>({
  type: Joi.string()
    .valid(...ENTRY_TYPES)
    .empty('')
    .default(null)
    .messages({ '*': 'Type must be TOPUP, ORDER, REFUND or ADJUSTMENT' }),
  from: day('From must be a date (YYYY-MM-DD)'),
  to: day('To must be a date (YYYY-MM-DD)'),
  page: Joi.number().integer().min(1).max(100000).default(1),
  limit: Joi.number().integer().min(1).max(100).default(20)
}).options({ stripUnknown: true })

/** POST /api/wallet/topup */
export const topupBody = Joi.object<TopupInput>({
  amount: Joi.number().positive().precision(2).required().messages({ '*': 'Enter an amount in cedis (up to 2 decimals)' }),
  payerPhone: Joi.string().allow('', null),
  payerNetwork: Joi.string().allow('', null),
  email: Joi.string().allow('', null).max(254),
  method: Joi.string().valid('momo', 'card')
}).options({ stripUnknown: true })

/** POST /api/wallet/agents/:id/adjust */
export const adjustBody = Joi.object<AdjustInput>({
  amount: Joi.number().positive().precision(2).max(1_000_000).required().messages({ '*': 'Enter an amount in cedis greater than 0 (up to 2 decimals)' }),
  direction: Joi.string().valid('CREDIT', 'DEBIT').required().messages({ '*': 'Choose credit or debit' }),
  reason: Joi.string().trim().min(3).max(300).required().messages({ '*': 'A reason of at least 3 characters is required' })
}).options({ stripUnknown: true })
